import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { taxTransmissions, type QueryOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export type TaxTransmissionQuery = QueryOf<typeof taxTransmissions>;

/** GET /api/tax/transmissions: documents KRA has not accepted, oldest first, with their age and KRA's reason. */
export function useTaxTransmissions(query: TaxTransmissionQuery) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.tax.transmissions(query),
      queryFn: () => callEndpoint(taxTransmissions, { query }),
      placeholderData: keepPreviousData,
    }),
  );
}
