import { queryOptions, useQuery } from '@tanstack/react-query';
import { newSubscriberForm } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/subscribers/new -> durations, media, bet_categories. */
export function getSubscriberForm() {
  return callEndpoint(newSubscriberForm);
}

export function subscriberFormQueryOptions() {
  return queryOptions({ queryKey: queryKeys.tips.subscriberForm(), queryFn: getSubscriberForm });
}

export function useSubscriberForm() {
  return useQuery(subscriberFormQueryOptions());
}
