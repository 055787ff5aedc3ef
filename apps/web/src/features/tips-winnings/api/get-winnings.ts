import { queryOptions, useQuery } from '@tanstack/react-query';
import { winnings } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/winnings/update -> content. */
export function getWinnings() {
  return callEndpoint(winnings);
}

export function winningsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.tips.winnings, queryFn: getWinnings });
}

export function useWinnings() {
  return useQuery(winningsQueryOptions());
}
