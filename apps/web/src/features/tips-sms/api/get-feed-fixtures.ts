import { queryOptions, useQuery } from '@tanstack/react-query';
import { feedFixtures, type FeedFixturesQuery } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/feed/fixtures: the feed's fixtures kept locally (decision 070); no provider quota is spent. */
export function getFeedFixtures(query: FeedFixturesQuery) {
  return callEndpoint(feedFixtures, { query });
}

export function feedFixturesQueryOptions(query: FeedFixturesQuery) {
  return queryOptions({ queryKey: queryKeys.tips.feedFixtures(query), queryFn: () => getFeedFixtures(query), staleTime: 60_000 });
}

export function useFeedFixtures(query: FeedFixturesQuery) {
  return useQuery(feedFixturesQueryOptions(query));
}
