import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendSubscriberSms, SubscriberSmsForm, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/subscribers/send-sms {subscriber_id, message}. */
export const sendSmsInputSchema = SubscriberSmsForm;

export function sendSms(body: BodyOf<typeof sendSubscriberSms>) {
  return callEndpoint(sendSubscriberSms, { body });
}

export function useSendSms() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: sendSms, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sms.all }) });
}
