import { useMutation, useQueryClient } from '@tanstack/react-query';
import { setSubscriberLanguage, type BodyOf, type CustomerLanguage } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { subscriberQueryOptions } from './get-subscriber.ts';

/** POST /api/tips/subscribers/language {subscriber_id, language}. */
export function setLanguage(body: BodyOf<typeof setSubscriberLanguage>) {
  return callEndpoint(setSubscriberLanguage, { body });
}

/** Sets the shown subscriber's language, then reads the subscriber again. */
export function useSetLanguage(subscriberId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: CustomerLanguage) => setLanguage({ subscriber_id: subscriberId, language }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriberQueryOptions(subscriberId).queryKey }),
  });
}
