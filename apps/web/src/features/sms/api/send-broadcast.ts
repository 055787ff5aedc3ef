import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendBroadcast, type BroadcastAudience } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/broadcasts/send {..., idempotency_key}: queued once per key, however often it is sent. */
export function useSendBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BroadcastAudience & { idempotency_key: string }) => callEndpoint(sendBroadcast, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sms.all }),
  });
}
