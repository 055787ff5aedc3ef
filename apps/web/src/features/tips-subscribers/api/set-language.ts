import { useMutation, useQueryClient } from '@tanstack/react-query';
import { setSubscriberLanguage, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { subscriberQueryOptions } from './get-subscriber.ts';

/** POST /api/tips/subscribers/language {subscriber_id, language}. */
export function setLanguage(body: BodyOf<typeof setSubscriberLanguage>) {
  return callEndpoint(setSubscriberLanguage, { body });
}

export function useSetLanguage(subscriberId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setLanguage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriberQueryOptions(subscriberId).queryKey }),
  });
}
