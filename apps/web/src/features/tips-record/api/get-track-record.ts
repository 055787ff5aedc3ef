import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { trackRecord, type RecordQuery } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/record?bet_category_id&from&to: the figures, computed from the entered results. */
export function getTrackRecord(query: RecordQuery) {
  return callEndpoint(trackRecord, { query });
}

export function trackRecordQueryOptions(query: RecordQuery) {
  return queryOptions({ queryKey: queryKeys.tips.trackRecord(query), queryFn: () => getTrackRecord(query), placeholderData: keepPreviousData });
}

export function useTrackRecord(query: RecordQuery) {
  return useQuery(trackRecordQueryOptions(query));
}
