import { queryOptions, useQuery } from '@tanstack/react-query';
import { smsMessage } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/sms/log/show?id -> message (with gateway details). */
export function getSmsMessage(id: number) {
  return callEndpoint(smsMessage, { query: { id } });
}

export function smsMessageQueryOptions(id: number) {
  return queryOptions({ queryKey: queryKeys.sms.message(id), queryFn: () => getSmsMessage(id) });
}

export function useSmsMessage(id: number | null) {
  return useQuery({ ...smsMessageQueryOptions(id ?? 0), enabled: id !== null });
}
