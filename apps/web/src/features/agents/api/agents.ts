import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  agentList,
  agentPayoutList,
  agentStatement,
  approveAgentPayout,
  createAgent,
  makeAgentPayouts,
  type AgentBody,
  type AgentPayoutStatus,
  type ResponseOf,
} from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { callEndpoint, request } from '@/lib/http.ts';

/**
 * The agents' data: its keys live with the screen, the only one that reads them (lib/query-keys.ts is
 * in the first load of every screen, whose budget has no room left).
 */
const agentKeys = {
  all: ['agents'] as const,
  list: (query: unknown) => ['agents', 'list', query] as const,
  statement: (agentId: number, month: string) => ['agents', 'statement', agentId, month] as const,
  payouts: ['agents', 'payouts'] as const,
  payoutList: (query: unknown, status: unknown) => ['agents', 'payouts', query, status] as const,
};

/** GET /api/agents?page&perPage -> agents (newest first) with this month's commission, total_records. */
export function useAgents(query: ListQueryParams) {
  const { page, perPage } = query;
  return useQuery(
    queryOptions({
      queryKey: agentKeys.list({ page, perPage }),
      queryFn: () => getList(agentList, { page, perPage }),
      placeholderData: keepPreviousData,
    }),
  );
}

/** POST /api/agents: registers an agent with a referral code; the list refreshes. */
export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AgentBody) => callEndpoint(createAgent, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.all }),
  });
}

/** GET /api/agents/:id/statement?month=YYYY-MM: the month's lines and their total. */
export function useAgentStatement(agentId: number | null, month: string) {
  return useQuery(
    queryOptions({
      queryKey: agentKeys.statement(agentId ?? 0, month),
      queryFn: () => request<ResponseOf<typeof agentStatement>>('GET', agentStatement.path.replace(':id', String(agentId)), { query: { month } }),
      enabled: agentId !== null && /^\d{4}-\d{2}$/.test(month),
      placeholderData: keepPreviousData,
    }),
  );
}

/** GET /api/agents/payouts?page&perPage&status -> payouts, newest month first, total_records. */
export function useAgentPayouts(query: ListQueryParams, status: AgentPayoutStatus | undefined) {
  const { page, perPage } = query;
  return useQuery(
    queryOptions({
      queryKey: agentKeys.payoutList({ page, perPage }, status),
      queryFn: () => getList(agentPayoutList, { page, perPage }, status ? { status } : {}),
      placeholderData: keepPreviousData,
    }),
  );
}

/** POST /api/agents/payouts {month}: a closed month's payouts, awaiting a second admin; the payouts refresh. */
export function useMakeAgentPayouts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (month: string) => callEndpoint(makeAgentPayouts, { body: { month } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.payouts }),
  });
}

/** The key every payout list starts with: an approval refreshes them all. */
export const payoutsKey = agentKeys.payouts;

/** POST /api/agents/payouts/:id/approve {code}: a second admin's approval with their own code (403 to the requester). */
export function approvePayoutWithCode(id: number, code: string) {
  return request<ResponseOf<typeof approveAgentPayout>>('POST', approveAgentPayout.path.replace(':id', String(id)), { body: { code } });
}
