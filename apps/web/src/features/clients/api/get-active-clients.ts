import { queryOptions, useQuery } from '@tanstack/react-query';
import { activeClients } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/clients/active -> total_active_clients, total_clients, active_clients. */
export function getActiveClients() {
  return callEndpoint(activeClients);
}

export function useActiveClients() {
  return useQuery(queryOptions({ queryKey: ['clients', 'active'], queryFn: getActiveClients }));
}
