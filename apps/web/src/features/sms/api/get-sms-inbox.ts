import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { smsInbox, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export interface SmsInboxFilter {
  search: string;
  page: number;
  perPage: PageSize;
}

/** GET /api/sms/inbox ?search&page&perPage -> messages people texted us, total_records. */
export function getSmsInbox(filter: SmsInboxFilter) {
  return callEndpoint(smsInbox, { query: filter });
}

export function smsInboxQueryOptions(filter: SmsInboxFilter) {
  return queryOptions({
    queryKey: queryKeys.sms.inbox(filter.search, filter.page, filter.perPage),
    queryFn: () => getSmsInbox(filter),
    placeholderData: keepPreviousData,
  });
}

export function useSmsInbox(filter: SmsInboxFilter) {
  return useQuery(smsInboxQueryOptions(filter));
}
