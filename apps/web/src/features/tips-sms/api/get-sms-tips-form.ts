import { queryOptions, useQuery } from '@tanstack/react-query';
import { smsTipsForm } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/posts/update-sms-tips -> posts (the current tip of each bet category). */
export function getSmsTipsForm() {
  return callEndpoint(smsTipsForm);
}

export function smsTipsFormQueryOptions() {
  return queryOptions({ queryKey: queryKeys.tips.smsTipsForm(), queryFn: getSmsTipsForm });
}

export function useSmsTipsForm() {
  return useQuery(smsTipsFormQueryOptions());
}
