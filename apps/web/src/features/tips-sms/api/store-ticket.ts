import { useMutation, useQueryClient } from '@tanstack/react-query';
import { storeTicket as storeEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/tickets/store {bet_category_id, match_date, selections}. */
export function storeTicket(body: BodyOf<typeof storeEndpoint>) {
  return callEndpoint(storeEndpoint, { body });
}

export function useStoreTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: storeTicket,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.tips.tickets }),
        queryClient.invalidateQueries({ queryKey: queryKeys.tips.record }),
      ]),
  });
}
