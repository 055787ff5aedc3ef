import { queryOptions, useQuery } from '@tanstack/react-query';
import { claimPreview, type ClaimCandidate } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/mpesa-transactions/claim-preview: what the claim would buy, worked out and rolled back. */
export function getClaimPreview(transactionId: number, payee: Pick<ClaimCandidate, 'kind' | 'id'>) {
  const who = payee.kind === 'client' ? { client_id: payee.id } : { subscriber_id: payee.id };
  return callEndpoint(claimPreview, { query: { transaction_id: transactionId, ...who } });
}

export function useClaimPreview(transactionId: number, payee: Pick<ClaimCandidate, 'kind' | 'id'>) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.claimQuestions.preview(transactionId, payee.kind, payee.id),
      queryFn: () => getClaimPreview(transactionId, payee),
      // Pending bonuses and plans change: ask again each time the question is asked.
      staleTime: 0,
      gcTime: 0,
      retry: false,
    }),
  );
}
