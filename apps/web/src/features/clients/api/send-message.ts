import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendClientMessage, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/messages {id, name, phone, message}: an SMS to the client, queued by the server. */
export function useSendMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof sendClientMessage>) => callEndpoint(sendClientMessage, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sms.all }),
  });
}
