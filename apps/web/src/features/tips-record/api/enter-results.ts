import { useMutation, useQueryClient } from '@tanstack/react-query';
import { enterResults as enterEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/tickets/results {results: [{selection_id, result}]}. */
export function enterResults(body: BodyOf<typeof enterEndpoint>) {
  return callEndpoint(enterEndpoint, { body });
}

export function useEnterResults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enterResults,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.tips.tickets }),
        queryClient.invalidateQueries({ queryKey: queryKeys.tips.record }),
      ]),
  });
}
