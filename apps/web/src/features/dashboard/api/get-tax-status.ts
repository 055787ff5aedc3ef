import { queryOptions, useQuery } from '@tanstack/react-query';
import { taxStatus } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tax/status (admins): the banner when tax invoicing is off or invoices are late. */
export function useTaxStatus(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.dashboard.taxStatus(),
      queryFn: () => callEndpoint(taxStatus, {}, { failure: 'log' }),
      enabled,
    }),
  );
}
