import { queryOptions, useQuery } from '@tanstack/react-query';
import { showSubscriber } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/subscribers/show ?subscriber_id -> subscriber. */
export function getSubscriber(subscriberId: number) {
  return callEndpoint(showSubscriber, { query: { subscriber_id: subscriberId } });
}

export function subscriberQueryOptions(subscriberId: number) {
  return queryOptions({ queryKey: queryKeys.tips.subscriber(subscriberId), queryFn: () => getSubscriber(subscriberId) });
}

export function useSubscriber(subscriberId: number) {
  return useQuery(subscriberQueryOptions(subscriberId));
}
