import { useMutation, useQueryClient } from '@tanstack/react-query';
import { runMoneyCheckNow } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/mpesa/money-check/run: checks the money invariants now. */
export function useRunMoneyCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(runMoneyCheckNow),
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.reconciliation.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.dashboard.all }),
    ]),
  });
}
