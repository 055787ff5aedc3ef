import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { paidBonuses, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/bonuses/paid -> totals (admin), bonuses (payments), total_records. */
export function getBonusPayments(page: number, perPage: PageSize) {
  return callEndpoint(paidBonuses, { query: { page, perPage } });
}

export function useBonusPayments(page: number, perPage: PageSize) {
  return useQuery(
    queryOptions({
      queryKey: ['bonuses', 'paid', page, perPage],
      queryFn: () => getBonusPayments(page, perPage),
      placeholderData: keepPreviousData,
    }),
  );
}
