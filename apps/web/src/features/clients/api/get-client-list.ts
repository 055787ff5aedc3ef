import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { clientBets, clientBonuses, clientPaidBonuses, clientSubscriptions, type ResponseOf } from '@betdesk/contract';
import type { ListQueryParams } from '@/components/data-table/list-query.ts';
import { get } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export const clientLists = {
  subscriptions: clientSubscriptions,
  bets: clientBets,
  bonuses: clientBonuses,
  'paid-bonuses': clientPaidBonuses,
} as const;
export type ClientListKind = keyof typeof clientLists;

/** The LISTS entry of each list. */
export const clientListNames = {
  subscriptions: 'clientSubscriptions',
  bets: 'clientBets',
  bonuses: 'clientBonuses',
  'paid-bonuses': 'clientPaidBonuses',
} as const satisfies Record<ClientListKind, string>;

/** GET /api/clients/{subscriptions,bets,bonuses,paid-bonuses} ?client_id&page&perPage&sort&dir -> total_records, list, client. */
export function getClientList<K extends ClientListKind>(kind: K, clientId: number, query: ListQueryParams) {
  return get<ResponseOf<(typeof clientLists)[K]>>(clientLists[kind].path, { client_id: clientId, ...query });
}

export function useClientList<K extends ClientListKind>(kind: K, clientId: number, query: ListQueryParams) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.clients.subList(kind, clientId, query),
      queryFn: () => getClientList(kind, clientId, query),
      placeholderData: keepPreviousData,
    }),
  );
}
