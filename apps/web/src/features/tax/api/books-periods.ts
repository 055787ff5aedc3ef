import { queryOptions, useQuery } from '@tanstack/react-query';
import { closeBooksPeriod, confirmBooksPeriod, listBooksPeriods, reopenBooksPeriod, type ResponseOf } from '@betdesk/contract';
import { callEndpoint, request } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/**
 * The books periods (decision 075): the months asked to close, closing, closed or reopening; and the
 * moves on them: ask to close (with the return's reference), confirm (a second admin's code), ask to reopen.
 * Lives in: apps/web/src/features/tax/api/books-periods.ts
 */

const monthPath = (path: string, month: string) => path.replace(':month', month);

export function useBooksPeriods() {
  return useQuery(queryOptions({ queryKey: queryKeys.tax.books(), queryFn: () => callEndpoint(listBooksPeriods) }));
}

export function askToCloseMonth(month: string, returnReference: string) {
  return request<ResponseOf<typeof closeBooksPeriod>>('POST', monthPath(closeBooksPeriod.path, month), { body: { return_reference: returnReference } });
}

export function confirmMonth(month: string, code: string) {
  return request<ResponseOf<typeof confirmBooksPeriod>>('POST', monthPath(confirmBooksPeriod.path, month), { body: { code } });
}

export function askToReopenMonth(month: string) {
  return request<ResponseOf<typeof reopenBooksPeriod>>('POST', monthPath(reopenBooksPeriod.path, month));
}
