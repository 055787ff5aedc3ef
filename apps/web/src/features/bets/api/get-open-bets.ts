import { queryOptions, useQuery } from '@tanstack/react-query';
import { openBets } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/bets/open -> total_open_bets, total_closed_bets (admin), bets. */
export function getOpenBets() {
  return callEndpoint(openBets);
}

export function useOpenBets() {
  return useQuery(queryOptions({ queryKey: ['bets', 'open'], queryFn: getOpenBets }));
}
