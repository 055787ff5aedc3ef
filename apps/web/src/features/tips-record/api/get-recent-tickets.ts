import { queryOptions, useQuery } from '@tanstack/react-query';
import { tickets } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/tickets: the latest tickets of every category with their legs and status. */
export function getRecentTickets() {
  return callEndpoint(tickets, { query: { perPage: 50 } });
}

export function recentTicketsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.tips.recentTickets(), queryFn: getRecentTickets });
}

export function useRecentTickets() {
  return useQuery(recentTicketsQueryOptions());
}
