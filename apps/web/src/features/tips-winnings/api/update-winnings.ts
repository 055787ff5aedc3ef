import { useMutation, useQueryClient } from '@tanstack/react-query';
import { updateWinnings, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/winnings/update {content}. */
export function saveWinnings(body: BodyOf<typeof updateWinnings>) {
  return callEndpoint(updateWinnings, { body });
}

export function useSaveWinnings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveWinnings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tips.winnings }),
  });
}
