import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { activeSubscribers } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export type SubscribersScope = 'active' | 'all';

/** GET /api/tips/subscribers/active with the table's query (status=all for the All Subscribers screen). */
export function getSubscribers(scope: SubscribersScope, query: ListQueryParams) {
  return getList(activeSubscribers, query, scope === 'all' ? { status: 'all' } : {});
}

export function subscribersQueryOptions(scope: SubscribersScope, query: ListQueryParams) {
  return queryOptions({
    queryKey: queryKeys.tips.subscribers(scope, query),
    queryFn: () => getSubscribers(scope, query),
    placeholderData: keepPreviousData,
  });
}

export function useSubscribers(scope: SubscribersScope, query: ListQueryParams) {
  return useQuery(subscribersQueryOptions(scope, query));
}
