import { useMutation, useQueryClient } from '@tanstack/react-query';
import { enterProfit, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** POST /api/bets/update {bet_id, name, stake, profit}: closes the bet; a win creates a bonus. */
export function useEnterProfit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof enterProfit>) => callEndpoint(enterProfit, { body }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
