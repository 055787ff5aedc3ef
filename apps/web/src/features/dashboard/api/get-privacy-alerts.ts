import { useQuery } from '@tanstack/react-query';
import { privacyAlerts } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/privacy/alerts: overdue requests and breaches whose 72 hours run (admins). */
export function usePrivacyAlerts(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.privacy.alerts(),
    queryFn: () => callEndpoint(privacyAlerts),
    enabled,
    refetchInterval: 60_000,
  });
}
