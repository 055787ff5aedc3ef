import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { listClients, searchClients } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/clients with the table's page and sort, or /api/clients/search with the search text. */
export function getClients(query: ListQueryParams) {
  return query.search ? getList(searchClients, query) : getList(listClients, query);
}

export function useClients(query: ListQueryParams) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.clients.list(query),
      queryFn: () => getClients(query),
      placeholderData: keepPreviousData,
    }),
  );
}
