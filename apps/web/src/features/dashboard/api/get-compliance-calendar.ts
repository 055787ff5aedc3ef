import { useQuery } from '@tanstack/react-query';
import { complianceCalendar } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/compliance/calendar: every compliance item with its dates and status (admins). */
export function useComplianceCalendar(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.compliance.calendar(),
    queryFn: () => callEndpoint(complianceCalendar),
    enabled,
    refetchInterval: 300_000,
  });
}
