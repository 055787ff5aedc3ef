import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { activeSubscribers, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

export type SubscribersScope = 'active' | 'all';

/** GET /api/tips/subscribers/active ?page&perPage (status=all for the All Subscribers screen). */
export function getSubscribers(scope: SubscribersScope, page: number, perPage: PageSize) {
  return callEndpoint(activeSubscribers, { query: { page, perPage, ...(scope === 'all' ? { status: 'all' } : {}) } });
}

export function subscribersQueryOptions(scope: SubscribersScope, page: number, perPage: PageSize) {
  return queryOptions({
    queryKey: ['tips', 'subscribers', scope, page, perPage],
    queryFn: () => getSubscribers(scope, page, perPage),
    placeholderData: keepPreviousData,
  });
}

export function useSubscribers(scope: SubscribersScope, page: number, perPage: PageSize) {
  return useQuery(subscribersQueryOptions(scope, page, perPage));
}
