import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { auditLog, type QueryOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export type AuditFilter = QueryOf<typeof auditLog>;

/** GET /api/audit: one page of the trail, a count capped at 10,000 and the users to filter by. */
export function getAuditLog(filter: AuditFilter) {
  return callEndpoint(auditLog, { query: filter });
}

export function auditLogQuery(filter: AuditFilter) {
  return queryOptions({
    queryKey: queryKeys.audit.log(filter),
    queryFn: () => getAuditLog(filter),
    placeholderData: keepPreviousData,
  });
}

export function useAuditLog(filter: AuditFilter) {
  return useQuery(auditLogQuery(filter));
}
