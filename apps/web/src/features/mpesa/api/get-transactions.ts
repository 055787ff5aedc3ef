import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { mpesaTransactions, searchMpesaTransactions, unclaimedMpesaTransactions, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

export type TransactionsView = 'all' | 'unclaimed';

/**
 * GET /api/mpesa-transactions (or /search when searching) and /api/mpesa-transactions/unclaimed
 * -> total_records, transactions, total_unclaimed, total_deposit.
 */
export function getTransactions(view: TransactionsView, page: number, perPage: PageSize, search: string) {
  if (view === 'unclaimed') return callEndpoint(unclaimedMpesaTransactions, { query: { page, perPage, search } });
  if (search) return callEndpoint(searchMpesaTransactions, { query: { page, perPage, search } });
  return callEndpoint(mpesaTransactions, { query: { page, perPage } });
}

export const transactionsKey = ['mpesa-transactions'] as const;

export function useTransactions(view: TransactionsView, page: number, perPage: PageSize, search: string) {
  return useQuery(
    queryOptions({
      queryKey: [...transactionsKey, view, page, perPage, search],
      queryFn: () => getTransactions(view, page, perPage, search),
      placeholderData: keepPreviousData,
    }),
  );
}
