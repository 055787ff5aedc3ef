import { useQuery } from '@tanstack/react-query';
import { listAdminGrants } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/users/admin-grants: admin rights waiting and lately given (admins), for the dashboard's alert. */
export function useAdminGrantAlerts(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.users.adminGrants(),
    queryFn: () => callEndpoint(listAdminGrants),
    enabled,
    refetchInterval: 60_000,
  });
}
