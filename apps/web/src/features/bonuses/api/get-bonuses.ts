import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { listBonuses, searchBonuses, unpaidBonuses } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/bonuses (or /search with text, or /unpaid) with the table's query -> totals (admin), bonuses, total_records. */
export function getBonuses(which: 'all' | 'unpaid', query: ListQueryParams) {
  if (which === 'unpaid') return getList(unpaidBonuses, query);
  return query.search ? getList(searchBonuses, query) : getList(listBonuses, query);
}

export function useBonuses(which: 'all' | 'unpaid', query: ListQueryParams) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.bonuses.list(which, query),
      queryFn: () => getBonuses(which, query),
      placeholderData: keepPreviousData,
    }),
  );
}
