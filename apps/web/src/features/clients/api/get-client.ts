import { queryOptions, useQuery } from '@tanstack/react-query';
import { showClient } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/clients/show ?client_id -> client, passwords (the server audits the reveal). */
export function getClient(clientId: number) {
  return callEndpoint(showClient, { query: { client_id: clientId } });
}

export function useClient(clientId: number) {
  return useQuery(queryOptions({ queryKey: queryKeys.clients.show(clientId), queryFn: () => getClient(clientId), staleTime: 0 }));
}
