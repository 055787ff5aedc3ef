import { queryOptions, useQuery } from '@tanstack/react-query';
import { viewSmsTips } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/posts/view-sms-tips -> posts with delivery counts. */
export function getSmsTips() {
  return callEndpoint(viewSmsTips);
}

export function smsTipsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.tips.smsTipsView(), queryFn: getSmsTips, refetchInterval: 15_000 });
}

export function useSmsTips() {
  return useQuery(smsTipsQueryOptions());
}
