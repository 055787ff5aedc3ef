import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { listRefunds, type RefundStatus } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** Every refunds query starts with this key: a request, an approval or a cancel refreshes them all. */

/**
 * GET /api/refunds with the table's page, order and days, and the status chosen -> the page of
 * refunds, total_records, the filter's amounts refunded (done), asked and failed, how many refunds
 * need an admin, and the utility account's balance.
 */
export function useRefunds(query: ListQueryParams, status: RefundStatus | undefined) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.refunds.list(query, status),
      queryFn: () => getList(listRefunds, query, status ? { status } : {}),
      placeholderData: keepPreviousData,
    }),
  );
}
