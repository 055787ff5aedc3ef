import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unclaimPayment } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/mpesa-transactions/unclaim {transaction_id}: reverses a wrong claim. */
export function useUnclaimPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (transactionId: number) => callEndpoint(unclaimPayment, { body: { transaction_id: transactionId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.mpesa.all }),
  });
}
