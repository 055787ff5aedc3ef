import type { Endpoint, PageSize, QueryOf, ResponseOf, SortDirection } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** What useTableState sends a list endpoint: paging plus the list's filters (see table-params). */
export interface ListQueryParams {
  page: number;
  perPage: PageSize;
  search?: string;
  sort?: string;
  dir?: SortDirection;
  from?: string;
  to?: string;
}

/** Calls a list endpoint with the table's query and any fixed parameters of the screen. */
export function getList<E extends Endpoint>(endpoint: E, query: ListQueryParams, extra: Record<string, unknown> = {}): Promise<ResponseOf<E>> {
  return callEndpoint(endpoint, { query: { ...query, ...extra } as QueryOf<E> });
}

/** The record count of a list answer as a figure: "2,500", or "10,000+" when the server stopped counting. */
export function totalOf(data: { total_records?: number; total_capped?: boolean } | undefined): string {
  return `${(data?.total_records ?? 0).toLocaleString('en-KE')}${data?.total_capped ? '+' : ''}`;
}
