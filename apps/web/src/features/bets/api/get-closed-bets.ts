import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { closedBets, searchClosedBets } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/bets/closed with the table's page, sort and dates, or /api/bets/closed/search with the search text. */
export function getClosedBets(query: ListQueryParams) {
  return query.search ? getList(searchClosedBets, query) : getList(closedBets, query);
}

export function useClosedBets(query: ListQueryParams) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.bets.closed(query),
      queryFn: () => getClosedBets(query),
      placeholderData: keepPreviousData,
    }),
  );
}
