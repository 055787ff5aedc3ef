import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { activeTipsSubscriptions, allTipsSubscriptions } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export type SubscriptionsScope = 'active' | 'all';

/** GET /api/tips/subscriptions/all or /active with the table's query -> subscriptions, total_records. */
export function getSubscriptions(scope: SubscriptionsScope, query: ListQueryParams) {
  return getList(scope === 'all' ? allTipsSubscriptions : activeTipsSubscriptions, query);
}

export function subscriptionsQueryOptions(scope: SubscriptionsScope, query: ListQueryParams) {
  return queryOptions({
    queryKey: queryKeys.tips.subscriptions(scope, query),
    queryFn: () => getSubscriptions(scope, query),
    placeholderData: keepPreviousData,
  });
}

export function useSubscriptions(scope: SubscriptionsScope, query: ListQueryParams) {
  return useQuery(subscriptionsQueryOptions(scope, query));
}
