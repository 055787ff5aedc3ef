import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { stopSubscriberAutoRenewal, subscriberAutoRenewals } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/**
 * GET /api/tips/subscribers/auto-renewals ?subscriber_id -> standing_orders. A 404 means M-Pesa
 * Ratiba is off: only logged, and the page shows nothing of automatic renewal.
 */
export function autoRenewalsQueryOptions(subscriberId: number) {
  return queryOptions({
    queryKey: queryKeys.tips.autoRenewals(subscriberId),
    queryFn: () => callEndpoint(subscriberAutoRenewals, { query: { subscriber_id: subscriberId } }, { failure: 'log' }),
    retry: false,
  });
}

export function useAutoRenewals(subscriberId: number) {
  return useQuery(autoRenewalsQueryOptions(subscriberId));
}

/** POST /api/tips/subscribers/auto-renewals/stop {standing_order_id}. */
export function useStopAutoRenewal(subscriberId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (standingOrderId: number) => callEndpoint(stopSubscriberAutoRenewal, { body: { standing_order_id: standingOrderId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: autoRenewalsQueryOptions(subscriberId).queryKey }),
  });
}
