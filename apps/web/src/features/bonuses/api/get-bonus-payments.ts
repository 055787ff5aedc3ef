import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { paidBonuses } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/bonuses/paid with the table's page, search, sort and dates -> totals (admin), bonuses (payments), total_records. */
export function getBonusPayments(query: ListQueryParams) {
  return getList(paidBonuses, query);
}

export function useBonusPayments(query: ListQueryParams) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.bonuses.paid(query),
      queryFn: () => getBonusPayments(query),
      placeholderData: keepPreviousData,
    }),
  );
}
