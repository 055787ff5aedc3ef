import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { openBets } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/bets/open ?page&perPage&search&sort&dir -> total_open_bets, total_closed_bets (admin), bets, total_records. */
export function getOpenBets(query: ListQueryParams) {
  return getList(openBets, query);
}

export function useOpenBets(query: ListQueryParams) {
  return useQuery(
    queryOptions({ queryKey: queryKeys.bets.open(query), queryFn: () => getOpenBets(query), placeholderData: keepPreviousData }),
  );
}
