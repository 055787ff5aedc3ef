import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { broadcastList, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/broadcasts ?page&perPage -> broadcasts with queued, held, sent, delivered and failed counts. */
export function getBroadcasts(page: number, perPage: PageSize) {
  return callEndpoint(broadcastList, { query: { page, perPage } });
}

export function broadcastsQueryOptions(page: number, perPage: PageSize) {
  return queryOptions({
    queryKey: queryKeys.sms.broadcasts(page, perPage),
    queryFn: () => getBroadcasts(page, perPage),
    placeholderData: keepPreviousData,
  });
}

export function useBroadcasts(page: number, perPage: PageSize) {
  return useQuery(broadcastsQueryOptions(page, perPage));
}
