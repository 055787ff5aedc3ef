import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { smsLog, type SmsStatus } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export interface SmsLogFilter {
  status: SmsStatus | null;
  /** The provider it was handed to (decision 062); null: every provider. */
  provider?: string | null;
  query: ListQueryParams;
}

/** GET /api/sms/log ?status&search&page&perPage&sort&dir&from&to -> messages, total_records, status_counts. */
export function getSmsLog(filter: SmsLogFilter) {
  return getList(smsLog, filter.query, {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.provider ? { provider: filter.provider } : {}),
  });
}

export function smsLogQueryOptions(filter: SmsLogFilter) {
  return queryOptions({
    queryKey: queryKeys.sms.log(filter.status, filter.query, filter.provider ?? null),
    queryFn: () => getSmsLog(filter),
    placeholderData: keepPreviousData,
  });
}

export function useSmsLog(filter: SmsLogFilter) {
  return useQuery(smsLogQueryOptions(filter));
}
