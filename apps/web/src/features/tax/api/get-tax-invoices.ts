import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { taxInvoices, type QueryOf } from '@betdesk/contract';
import { callEndpoint, request } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export type TaxInvoiceQuery = QueryOf<typeof taxInvoices>;

/** GET /api/tax/invoices: a page of invoices and credit notes with the totals of the filter. */
export function useTaxInvoices(query: TaxInvoiceQuery) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.tax.invoices(query),
      queryFn: () => callEndpoint(taxInvoices, { query }),
      placeholderData: keepPreviousData,
    }),
  );
}

/** POST /api/tax/invoices/:id/resend: a rejected invoice goes back in the queue. */
export function useResendTaxInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request('POST', `/api/tax/invoices/${id}/resend`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tax.all }),
  });
}
