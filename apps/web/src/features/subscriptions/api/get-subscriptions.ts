import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { allSubscriptions, recentSubscriptions, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/subscriptions (recent) or /api/subscriptions/all -> total_records, subscriptions, income. */
export function getSubscriptions(which: 'recent' | 'all', page: number, perPage: PageSize) {
  return callEndpoint(which === 'recent' ? recentSubscriptions : allSubscriptions, { query: { page, perPage } });
}

export function useSubscriptions(which: 'recent' | 'all', page: number, perPage: PageSize) {
  return useQuery(
    queryOptions({
      queryKey: ['subscriptions', which, page, perPage],
      queryFn: () => getSubscriptions(which, page, perPage),
      placeholderData: keepPreviousData,
    }),
  );
}
