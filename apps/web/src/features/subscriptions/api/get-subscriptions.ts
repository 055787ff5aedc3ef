import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { allSubscriptions, recentSubscriptions } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/subscriptions (recent) or /api/subscriptions/all with the table's query -> total_records, subscriptions, income. */
export function getSubscriptions(which: 'recent' | 'all', query: ListQueryParams) {
  return getList(which === 'recent' ? recentSubscriptions : allSubscriptions, query);
}

export function useSubscriptions(which: 'recent' | 'all', query: ListQueryParams) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.subscriptions.list(which, query),
      queryFn: () => getSubscriptions(which, query),
      placeholderData: keepPreviousData,
    }),
  );
}
