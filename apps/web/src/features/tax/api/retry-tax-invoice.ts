import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tax/invoices/:id/retry: send a document KRA has not accepted again now (idempotent). */
export function useRetryTaxInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request('POST', `/api/tax/invoices/${id}/retry`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tax.all }),
  });
}
