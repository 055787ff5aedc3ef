import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { listClients, searchClients, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/clients ?page&perPage, or /api/clients/search with the search text. */
export function getClients(page: number, perPage: PageSize, search: string) {
  return search
    ? callEndpoint(searchClients, { query: { page, perPage, search } })
    : callEndpoint(listClients, { query: { page, perPage } });
}

export function useClients(page: number, perPage: PageSize, search: string) {
  return useQuery(
    queryOptions({
      queryKey: ['clients', 'all', page, perPage, search],
      queryFn: () => getClients(page, perPage, search),
      placeholderData: keepPreviousData,
    }),
  );
}
