import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { tipsDeposits } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';

/** GET /api/tips/mpesa/all with the table's query -> deposits, total_records. */
export function getTipsDeposits(query: ListQueryParams) {
  return getList(tipsDeposits, query);
}

export function useTipsDeposits(query: ListQueryParams) {
  return useQuery(
    queryOptions({
      queryKey: ['mpesa-transactions', 'tips-deposits', query],
      queryFn: () => getTipsDeposits(query),
      placeholderData: keepPreviousData,
    }),
  );
}
