import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteUser, dropClient, saveClientAssignments, storeUser, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

function useUsersMutation<B>(call: (body: B) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.users.all });
      await queryClient.invalidateQueries({ queryKey: queryKeys.clients.all });
    },
  });
}

/** POST /api/users/store: register (no user_id) or update. */
export const useStoreUser = () =>
  useUsersMutation((body: BodyOf<typeof storeUser>) => callEndpoint(storeUser, { body }));

/** POST /api/users/delete {id}: a failure is only logged (spec 8). */
export const useDeleteUser = () =>
  useUsersMutation((body: BodyOf<typeof deleteUser>) => callEndpoint(deleteUser, { body }, { failure: 'log' }));

/** POST /api/users/drop-client {user_id, client_id}. */
export const useDropClient = () =>
  useUsersMutation((body: BodyOf<typeof dropClient>) => callEndpoint(dropClient, { body }));

/** POST /api/users/save-clients {user_id, client_ids[]}. */
export const useSaveClientAssignments = () =>
  useUsersMutation((body: BodyOf<typeof saveClientAssignments>) => callEndpoint(saveClientAssignments, { body }));
