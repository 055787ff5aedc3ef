import { queryOptions, useQuery } from '@tanstack/react-query';
import { showUserClients } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/users/show-clients ?user_id -> user, clients. */
export function getUserClients(userId: number) {
  return callEndpoint(showUserClients, { query: { user_id: userId } });
}

export function useUserClients(userId: number) {
  return useQuery(queryOptions({ queryKey: ['users', 'clients', userId], queryFn: () => getUserClients(userId) }));
}
