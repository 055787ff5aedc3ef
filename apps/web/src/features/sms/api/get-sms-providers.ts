import { queryOptions, useQuery } from '@tanstack/react-query';
import { smsCostReport, smsProviders } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/sms/providers -> each SMS provider's circuit and why, balance, sends, failures (decision 062). */
export function smsProvidersQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.sms.providers(),
    queryFn: () => callEndpoint(smsProviders),
    refetchInterval: 60_000,
  });
}

export function useSmsProviders(enabled = true) {
  return useQuery({ ...smsProvidersQueryOptions(), enabled });
}

/** GET /api/sms/cost-report ?month -> the month's SMS cost per provider and kind of text. */
export function useSmsCostReport(month: string) {
  return useQuery({
    queryKey: queryKeys.sms.costReport(month),
    queryFn: () => callEndpoint(smsCostReport, { query: { month } }),
  });
}
