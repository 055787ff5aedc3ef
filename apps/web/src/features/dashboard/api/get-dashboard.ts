import { queryOptions, useQuery } from '@tanstack/react-query';
import { dashboard } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/dashboard: figures (admin), counts, recent payments, active clients. */
export function getDashboard() {
  return callEndpoint(dashboard);
}

export function useDashboard() {
  return useQuery(queryOptions({ queryKey: queryKeys.dashboard.all, queryFn: getDashboard }));
}
