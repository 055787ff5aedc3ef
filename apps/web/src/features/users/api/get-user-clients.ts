import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { showUserClients, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/users/show-clients ?user_id&page&perPage&search -> user, one page of their clients, total_records. */
export function getUserClients(userId: number, page: number, perPage: PageSize, search: string) {
  return callEndpoint(showUserClients, { query: { user_id: userId, page, perPage, search } });
}

export function useUserClients(userId: number, page: number, perPage: PageSize, search: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.users.clients(userId, page, perPage, search),
      queryFn: () => getUserClients(userId, page, perPage, search),
      placeholderData: keepPreviousData,
    }),
  );
}
