import { queryOptions, useQuery } from '@tanstack/react-query';
import { awaitingResults } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/tickets/awaiting-results: kicked-off selections without a result, oldest first. */
export function getAwaitingResults() {
  return callEndpoint(awaitingResults);
}

export function awaitingResultsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.tips.awaitingResults(), queryFn: getAwaitingResults });
}

export function useAwaitingResults() {
  return useQuery(awaitingResultsQueryOptions());
}
