import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { allSubscriptions, recentSubscriptions } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';

/** GET /api/subscriptions (recent) or /api/subscriptions/all with the table's query -> total_records, subscriptions, income. */
export function getSubscriptions(which: 'recent' | 'all', query: ListQueryParams) {
  return getList(which === 'recent' ? recentSubscriptions : allSubscriptions, query);
}

export function useSubscriptions(which: 'recent' | 'all', query: ListQueryParams) {
  return useQuery(
    queryOptions({
      queryKey: ['subscriptions', which, query],
      queryFn: () => getSubscriptions(which, query),
      placeholderData: keepPreviousData,
    }),
  );
}
