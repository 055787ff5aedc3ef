import { queryOptions, useQuery } from '@tanstack/react-query';
import { taxTransmissions } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/**
 * GET /api/tax/transmissions (admins), its counts only: the admin alerts' line on documents KRA
 * rejected or has not accepted in time. Its own file, so that the admin alerts chunk shares no
 * module with the dashboard page (apps/web/build/route-sizes.ts).
 */
export function useTaxTransmissionAlert(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.dashboard.taxTransmissions(),
      queryFn: () => callEndpoint(taxTransmissions, { query: { page: 1, perPage: 50 } }, { failure: 'log' }),
      enabled,
    }),
  );
}
