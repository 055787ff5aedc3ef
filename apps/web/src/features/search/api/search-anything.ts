import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { search } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/search?q=: receipts, phones, clients, tips subscribers, bets, refunds and invoices (decision 067). */
export function useSearchAnything(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: queryKeys.search.results(text),
    queryFn: () => callEndpoint(search, { query: { q: text } }),
    enabled: text.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
