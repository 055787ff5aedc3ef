import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { tipsDeposits } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/mpesa/all with the table's query -> deposits, total_records. */
export function getTipsDeposits(query: ListQueryParams) {
  return getList(tipsDeposits, query);
}

export function useTipsDeposits(query: ListQueryParams) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.mpesa.tipsDeposits(query),
      queryFn: () => getTipsDeposits(query),
      placeholderData: keepPreviousData,
    }),
  );
}
