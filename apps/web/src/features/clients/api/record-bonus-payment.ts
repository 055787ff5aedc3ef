import { useMutation, useQueryClient } from '@tanstack/react-query';
import { recordBonusPayment, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** POST /api/bonuses/pay {client_id, amount, description}: settles pending bonuses oldest first (admin). */
export function useRecordBonusPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof recordBonusPayment>) => callEndpoint(recordBonusPayment, { body }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
