import { queryOptions, useQuery } from '@tanstack/react-query';
import { claimCandidates } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/mpesa-transactions/claim-candidates: suggestions (no search) or a search by name, phone or receipt. */
export function getClaimCandidates(transactionId: number, search: string) {
  return callEndpoint(claimCandidates, { query: { transaction_id: transactionId, search } });
}

export function useClaimCandidates(transactionId: number | null, search: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.claimQuestions.candidates(transactionId, search),
      queryFn: () => getClaimCandidates(transactionId!, search),
      enabled: transactionId !== null,
    }),
  );
}
