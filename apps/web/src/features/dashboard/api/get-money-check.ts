import { queryOptions, useQuery } from '@tanstack/react-query';
import { reconciliationStatus } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/mpesa/reconciliation/status (admins): the last nightly money check, for the banner. */
export function useMoneyCheck(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: ['dashboard', 'money-check'],
      queryFn: () => callEndpoint(reconciliationStatus, {}, { failure: 'log' }),
      select: (status) => status.money_check,
      enabled,
    }),
  );
}
