import { useQuery } from '@tanstack/react-query';
import { smsProviders } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/sms/providers for the admin dashboard's alert (the SMS log's own query, same key). */
export function useSmsProviderAlerts(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.sms.providers(), queryFn: () => callEndpoint(smsProviders), enabled, refetchInterval: 60_000 });
}
