import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { listBonuses, searchBonuses, unpaidBonuses, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/bonuses (or /search with text, or /unpaid) -> totals (admin), bonuses, total_records. */
export function getBonuses(which: 'all' | 'unpaid', page: number, perPage: PageSize, search: string) {
  if (which === 'unpaid') return callEndpoint(unpaidBonuses, { query: { page, perPage } });
  return search
    ? callEndpoint(searchBonuses, { query: { page, perPage, search } })
    : callEndpoint(listBonuses, { query: { page, perPage } });
}

export function useBonuses(which: 'all' | 'unpaid', page: number, perPage: PageSize, search: string) {
  return useQuery(
    queryOptions({
      queryKey: ['bonuses', which, page, perPage, search],
      queryFn: () => getBonuses(which, page, perPage, search),
      placeholderData: keepPreviousData,
    }),
  );
}
