import { useMutation, useQueryClient } from '@tanstack/react-query';
import { resendSms } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/sms/resend {id}: queues a failed or unconfirmed message again -> info, sms (the new one). */
export function useResendSms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(resendSms, { body: { id } }),
    // The log, its counts and both messages' details change.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sms.all }),
  });
}
