import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { showStatement, type PageSize, type StatementKind } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/mpesa/statements/show?statement_id&kind&page&perPage -> the comparison and a page of one kind's rows. */
export function useStatement(statementId: number | null, kind: StatementKind, page: number, perPage: PageSize) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reconciliation.statement(statementId, kind, page, perPage),
      queryFn: () => callEndpoint(showStatement, { query: { statement_id: statementId!, kind, page, perPage } }),
      enabled: statementId !== null,
      placeholderData: keepPreviousData,
    }),
  );
}
