import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { tipsDeposits, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/tips/mpesa/all ?page&perPage -> deposits, total_records. */
export function getTipsDeposits(page: number, perPage: PageSize) {
  return callEndpoint(tipsDeposits, { query: { page, perPage } });
}

export function useTipsDeposits(page: number, perPage: PageSize) {
  return useQuery(
    queryOptions({
      queryKey: ['mpesa-transactions', 'tips-deposits', page, perPage],
      queryFn: () => getTipsDeposits(page, perPage),
      placeholderData: keepPreviousData,
    }),
  );
}
