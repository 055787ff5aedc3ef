import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { clientBets, clientBonuses, clientPaidBonuses, clientSubscriptions, type PageSize, type ResponseOf } from '@betdesk/contract';
import { get } from '@/lib/http.ts';

export const clientLists = {
  subscriptions: clientSubscriptions,
  bets: clientBets,
  bonuses: clientBonuses,
  'paid-bonuses': clientPaidBonuses,
} as const;
export type ClientListKind = keyof typeof clientLists;

/** GET /api/clients/{subscriptions,bets,bonuses,paid-bonuses} ?page&perPage&client_id -> total_records, list, client. */
export function getClientList<K extends ClientListKind>(kind: K, clientId: number, page: number, perPage: PageSize) {
  return get<ResponseOf<(typeof clientLists)[K]>>(clientLists[kind].path, { client_id: clientId, page, perPage });
}

export function useClientList<K extends ClientListKind>(kind: K, clientId: number, page: number, perPage: PageSize) {
  return useQuery(
    queryOptions({
      queryKey: ['clients', kind, clientId, page, perPage],
      queryFn: () => getClientList(kind, clientId, page, perPage),
      placeholderData: keepPreviousData,
    }),
  );
}
