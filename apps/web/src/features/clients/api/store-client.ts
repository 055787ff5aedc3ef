import { useMutation, useQueryClient } from '@tanstack/react-query';
import { storeClient, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/clients/store: the admin's New client / Edit client form. */
export function useStoreClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof storeClient>) => callEndpoint(storeClient, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.clients.all }),
  });
}
