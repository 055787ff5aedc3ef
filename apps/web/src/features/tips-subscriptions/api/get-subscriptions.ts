import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { activeTipsSubscriptions, allTipsSubscriptions, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

export type SubscriptionsScope = 'active' | 'all';

/** GET /api/tips/subscriptions/all or /active ?page&perPage -> subscriptions, total_records. */
export function getSubscriptions(scope: SubscriptionsScope, page: number, perPage: PageSize) {
  const endpoint = scope === 'all' ? allTipsSubscriptions : activeTipsSubscriptions;
  return callEndpoint(endpoint, { query: { page, perPage } });
}

export function subscriptionsQueryOptions(scope: SubscriptionsScope, page: number, perPage: PageSize) {
  return queryOptions({
    queryKey: ['tips', 'subscriptions', scope, page, perPage],
    queryFn: () => getSubscriptions(scope, page, perPage),
    placeholderData: keepPreviousData,
  });
}

export function useSubscriptions(scope: SubscriptionsScope, page: number, perPage: PageSize) {
  return useQuery(subscriptionsQueryOptions(scope, page, perPage));
}
