import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { smsLog, type SmsStatus } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export interface SmsLogFilter {
  status: SmsStatus | null;
  query: ListQueryParams;
}

/** GET /api/sms/log ?status&search&page&perPage&sort&dir&from&to -> messages, total_records, status_counts. */
export function getSmsLog(filter: SmsLogFilter) {
  return getList(smsLog, filter.query, filter.status ? { status: filter.status } : {});
}

export function smsLogQueryOptions(filter: SmsLogFilter) {
  return queryOptions({
    queryKey: queryKeys.sms.log(filter.status, filter.query),
    queryFn: () => getSmsLog(filter),
    placeholderData: keepPreviousData,
  });
}

export function useSmsLog(filter: SmsLogFilter) {
  return useQuery(smsLogQueryOptions(filter));
}
