import { useMutation, useQueryClient } from '@tanstack/react-query';
import { runMoneyCheckNow } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { reconciliationKey } from './get-reconciliation.ts';

/** POST /api/mpesa/money-check/run: checks the money invariants now. */
export function useRunMoneyCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(runMoneyCheckNow),
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: reconciliationKey }),
      queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
    ]),
  });
}
