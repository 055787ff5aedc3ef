import { queryOptions, useQuery } from '@tanstack/react-query';
import { taxSummary } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tax/summary?month=YYYY-MM: per tax type, what the accountant files. */
export function useTaxSummary(month: string) {
  return useQuery(queryOptions({ queryKey: queryKeys.tax.summary(month), queryFn: () => callEndpoint(taxSummary, { query: { month } }) }));
}
