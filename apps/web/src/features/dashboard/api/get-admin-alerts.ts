import { queryOptions, useQuery } from '@tanstack/react-query';
import { dashboardAdminAlerts } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/**
 * GET /api/dashboard/admin-alerts (admins): every alert of the dashboard in one request and one small
 * schema (decision 078), refreshed each minute. A part the server could not read is null.
 */
export function useAdminAlerts() {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.dashboard.adminAlerts(),
      queryFn: () => callEndpoint(dashboardAdminAlerts, {}, { failure: 'log' }),
      refetchInterval: 60_000,
    }),
  );
}
