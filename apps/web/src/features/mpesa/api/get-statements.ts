import { queryOptions, useQuery } from '@tanstack/react-query';
import { latestStatements } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/mpesa/statements?page&perPage -> the statements uploaded, newest first. */
export function useLatestStatement() {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reconciliation.statements(),
      queryFn: () => callEndpoint(latestStatements, { query: { page: 1, perPage: 50 } }),
      select: (data) => data.statements[0] ?? null,
    }),
  );
}
