import { useMutation, useQueryClient } from '@tanstack/react-query';
import { resendSmsByCause } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/sms/resend-by-cause {cause}: queues every failed message of that cause again, once each. */
export function useResendByCause() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cause: string) => callEndpoint(resendSmsByCause, { body: { cause } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sms.all }),
  });
}
