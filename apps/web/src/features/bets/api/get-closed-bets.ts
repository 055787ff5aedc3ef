import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { closedBets, searchClosedBets, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/bets/closed ?page&perPage, or /api/bets/closed/search with the search text. */
export function getClosedBets(page: number, perPage: PageSize, search: string) {
  return search
    ? callEndpoint(searchClosedBets, { query: { page, perPage, search } })
    : callEndpoint(closedBets, { query: { page, perPage } });
}

export function useClosedBets(page: number, perPage: PageSize, search: string) {
  return useQuery(
    queryOptions({
      queryKey: ['bets', 'closed', page, perPage, search],
      queryFn: () => getClosedBets(page, perPage, search),
      placeholderData: keepPreviousData,
    }),
  );
}
