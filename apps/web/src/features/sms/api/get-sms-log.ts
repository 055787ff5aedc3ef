import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { smsLog, type PageSize, type SmsStatus } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

export interface SmsLogFilter {
  status: SmsStatus | null;
  search: string;
  page: number;
  perPage: PageSize;
}

/** GET /api/sms/log ?status&search&page&perPage -> messages, total_records, status_counts. */
export function getSmsLog(filter: SmsLogFilter) {
  return callEndpoint(smsLog, {
    query: {
      page: filter.page,
      perPage: filter.perPage,
      search: filter.search,
      ...(filter.status ? { status: filter.status } : {}),
    },
  });
}

export function smsLogQueryOptions(filter: SmsLogFilter) {
  return queryOptions({
    queryKey: ['sms', 'log', filter.status, filter.search, filter.page, filter.perPage],
    queryFn: () => getSmsLog(filter),
    placeholderData: keepPreviousData,
  });
}

export function useSmsLog(filter: SmsLogFilter) {
  return useQuery(smsLogQueryOptions(filter));
}
