import { queryOptions, useQuery } from '@tanstack/react-query';
import { reconciliationStatus } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { reconciliationKey } from './get-reconciliation.ts';

/** GET /api/mpesa/reconciliation/status -> pull job (configured, last run) and the last money check. */
export function useReconciliationStatus() {
  return useQuery(
    queryOptions({
      queryKey: [...reconciliationKey, 'status'],
      queryFn: () => callEndpoint(reconciliationStatus),
    }),
  );
}
