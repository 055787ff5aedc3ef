import { useMutation, useQueryClient } from '@tanstack/react-query';
import { runPullNow } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/mpesa/pull/run: asks Daraja Pull Transactions now. */
export function useRunPull() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(runPullNow),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reconciliation.all }),
  });
}
