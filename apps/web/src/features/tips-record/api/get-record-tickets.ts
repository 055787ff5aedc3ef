/**
 * The tickets of the Track Record's category and period with their legs (closing odds, CLV, verified).
 * Lives in: apps/web/src/features/tips-record/api
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { tickets, type RecordQuery } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/tickets?bet_category_id&from&to: the period's latest 50 tickets, newest match date first. */
export function getRecordTickets(query: RecordQuery) {
  return callEndpoint(tickets, { query: { ...query, perPage: 50 } });
}

export function recordTicketsQueryOptions(query: RecordQuery) {
  return queryOptions({ queryKey: queryKeys.tips.recordTickets(query), queryFn: () => getRecordTickets(query), placeholderData: keepPreviousData });
}

export function useRecordTickets(query: RecordQuery) {
  return useQuery(recordTicketsQueryOptions(query));
}
