import { queryOptions, useQuery } from '@tanstack/react-query';
import { reconciliationStatus } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/mpesa/reconciliation/status -> pull job (configured, last run) and the last money check. */
export function useReconciliationStatus() {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reconciliation.status(),
      queryFn: () => callEndpoint(reconciliationStatus),
    }),
  );
}
