import { useMutation, useQueryClient } from '@tanstack/react-query';
import { storeSubscriber as storeEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/subscribers/store {name, phone, bet_category_id, transmission_medium_id, duration}. */
export function storeSubscriber(body: BodyOf<typeof storeEndpoint>) {
  return callEndpoint(storeEndpoint, { body });
}

export function useStoreSubscriber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: storeSubscriber,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tips.all }),
  });
}
