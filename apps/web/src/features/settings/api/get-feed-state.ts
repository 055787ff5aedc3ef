import { queryOptions, useQuery } from '@tanstack/react-query';
import { feedState } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/feed/state: the sports-data feed's provider, the quota it last reported, the local fixtures (decision 070). */
export function getFeedState() {
  return callEndpoint(feedState);
}

export function feedStateQueryOptions() {
  return queryOptions({ queryKey: queryKeys.settings.feed(), queryFn: getFeedState });
}

export function useFeedState() {
  return useQuery(feedStateQueryOptions());
}
