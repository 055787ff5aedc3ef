import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { dailyReconciliation } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

export const reconciliationKey = ['mpesa-reconciliation'] as const;

/** GET /api/mpesa/reconciliation?from&to -> per Nairobi day received, claimed, unclaimed, statement, difference. */
export function useReconciliation(range: { from?: string; to?: string }) {
  return useQuery(
    queryOptions({
      queryKey: [...reconciliationKey, 'days', range.from ?? '', range.to ?? ''],
      queryFn: () => callEndpoint(dailyReconciliation, { query: range }),
      placeholderData: keepPreviousData,
    }),
  );
}
