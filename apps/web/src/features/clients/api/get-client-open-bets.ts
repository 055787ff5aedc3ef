import { queryOptions, useQuery } from '@tanstack/react-query';
import { clientBets } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/clients/bets?client_id&status=open: the client's bets still waiting for their profit (first 50). */
export function useClientOpenBets(clientId: number) {
  const query = { client_id: clientId, status: 'open' as const, page: 1, perPage: 50 };
  return useQuery(
    queryOptions({
      queryKey: queryKeys.clients.subList('open-bets', clientId, query),
      queryFn: () => callEndpoint(clientBets, { query }),
    }),
  );
}
