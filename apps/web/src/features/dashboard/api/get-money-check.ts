import { queryOptions, useQuery } from '@tanstack/react-query';
import { reconciliationStatus } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/mpesa/reconciliation/status (admins): the last nightly money check, for the banner. */
export function useMoneyCheck(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.dashboard.moneyCheck(),
      queryFn: () => callEndpoint(reconciliationStatus, {}, { failure: 'log' }),
      select: (status) => status.money_check,
      enabled,
    }),
  );
}
