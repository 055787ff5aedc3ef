import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { dailyReconciliation } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/**
 * GET /api/mpesa/reconciliation?from&to -> per Nairobi day received = claimed + unclaimed + refunded,
 * rejected, statement, difference. Its CSV is /api/mpesa/reconciliation/export with the same range.
 */
export function useReconciliation(range: { from?: string; to?: string }) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reconciliation.days(range.from ?? '', range.to ?? ''),
      queryFn: () => callEndpoint(dailyReconciliation, { query: range }),
      placeholderData: keepPreviousData,
    }),
  );
}
