import { useMutation, useQueryClient } from '@tanstack/react-query';
import { syncFeedFixtures } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/feed/fixtures/sync: the followed leagues' fixtures now, not at the next sync. */
export function syncFixtures() {
  return callEndpoint(syncFeedFixtures);
}

export function useSyncFixtures() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncFixtures,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.settings.feed() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.tips.feed }),
      ]),
  });
}
