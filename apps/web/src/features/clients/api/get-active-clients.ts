import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { activeClients } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/clients/active ?page&perPage&search&sort&dir -> total_active_clients, total_clients, active_clients, total_records. */
export function getActiveClients(query: ListQueryParams) {
  return getList(activeClients, query);
}

export function useActiveClients(query: ListQueryParams) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.clients.active(query),
      queryFn: () => getActiveClients(query),
      placeholderData: keepPreviousData,
    }),
  );
}
