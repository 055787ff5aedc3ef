import { queryOptions, useQuery } from '@tanstack/react-query';
import { taxStatus } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/tax/status (admins): the banner when tax invoicing is off or invoices are late. */
export function useTaxStatus(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: ['dashboard', 'tax-status'],
      queryFn: () => callEndpoint(taxStatus, {}, { failure: 'log' }),
      enabled,
    }),
  );
}
