import { useMutation, useQueryClient } from '@tanstack/react-query';
import { claimPayment, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/**
 * POST /api/mpesa-transactions/claim {transaction_id, client_id | subscriber_id}. Refreshes the
 * payment lists only: the dialog's own questions live under queryKeys.claimQuestions, so nothing re-reads
 * the claimed payment's preview (which the server would now answer with a 409).
 */
export function useClaimPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof claimPayment>) => callEndpoint(claimPayment, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.mpesa.all }),
  });
}
