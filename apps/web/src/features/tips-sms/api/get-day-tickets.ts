import { queryOptions, useQuery } from '@tanstack/react-query';
import { tickets } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/tickets?from=day&to=day: every category's ticket of one match date. */
export function getDayTickets(day: string) {
  return callEndpoint(tickets, { query: { from: day, to: day, perPage: 500 } });
}

export function dayTicketsQueryOptions(day: string) {
  return queryOptions({ queryKey: queryKeys.tips.dayTickets(day), queryFn: () => getDayTickets(day) });
}

export function useDayTickets(day: string) {
  return useQuery(dayTicketsQueryOptions(day));
}
