import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { mpesaTransactions, searchMpesaTransactions, unclaimedMpesaTransactions } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export type TransactionsView = 'all' | 'unclaimed';

/** The LISTS entry and CSV export of each view. */
export const transactionLists = {
  all: { list: 'mpesaTransactions', exportPath: '/api/mpesa-transactions/export' },
  unclaimed: { list: 'unclaimedTransactions', exportPath: '/api/mpesa-transactions/unclaimed/export' },
} as const;

/**
 * GET /api/mpesa-transactions (or /search when searching) and /api/mpesa-transactions/unclaimed
 * with the table's page, sort and date range -> total_records, transactions, total_unclaimed,
 * total_deposit (the totals of the same range).
 */
export function getTransactions(view: TransactionsView, query: ListQueryParams) {
  if (view === 'unclaimed') return getList(unclaimedMpesaTransactions, query);
  if (query.search) return getList(searchMpesaTransactions, query);
  return getList(mpesaTransactions, query);
}

export function useTransactions(view: TransactionsView, query: ListQueryParams) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.mpesa.transactions(view, query),
      queryFn: () => getTransactions(view, query),
      placeholderData: keepPreviousData,
    }),
  );
}
