/**
 * A buyer's KRA PIN and invoices (decision 074): the card's reads and writes, and an invoice's PDF.
 * Lives in: apps/web/src/components/tax-identity (shared by the client and subscriber pages).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sendTaxInvoiceLink, taxInvoiceDocument, type TaxIdentityForm, type TaxIdentityView } from '@betdesk/contract';
import { downloadFile, request } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** Whose identity the card shows: a Bet4Me client or a tips subscriber. */
export type TaxBuyer = { clientId: number } | { subscriberId: number };

const pathOf = (b: TaxBuyer) => ('clientId' in b ? `/api/clients/${b.clientId}/tax-identity` : `/api/tips/subscribers/${b.subscriberId}/tax-identity`);
const keyOf = (b: TaxBuyer) => ['tax', 'identity', 'clientId' in b ? `c${b.clientId}` : `s${b.subscriberId}`] as const;

/** GET …/tax-identity: the PIN, its name and the buyer's invoices. */
export function useTaxIdentity(buyer: TaxBuyer) {
  return useQuery({ queryKey: keyOf(buyer), queryFn: () => request<TaxIdentityView>('GET', pathOf(buyer)) });
}

/** PUT …/tax-identity {pin, name}: an empty PIN clears it. */
export function useSaveTaxIdentity(buyer: TaxBuyer) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TaxIdentityForm) => request<TaxIdentityView & { info: string }>('PUT', pathOf(buyer), { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyOf(buyer) }),
  });
}

/** POST /api/tax/invoices/:id/reissue: a credit note and a new invoice with the buyer's PIN (admin). */
export function useReissueInvoice(buyer: TaxBuyer) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request<{ info: string }>('POST', `/api/tax/invoices/${id}/reissue`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keyOf(buyer) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.tax.all });
    },
  });
}

/** GET /api/tax/invoices/:id/document: the invoice or credit note as a PDF, A4 or an 80 mm receipt. */
export function downloadInvoiceDocument(id: number, number: number, size: 'a4' | 'receipt' = 'a4'): Promise<void> {
  return downloadFile(taxInvoiceDocument.path.replace(':id', String(id)), { format: 'pdf', size }, `invoice-${number}${size === 'receipt' ? '-receipt' : ''}.pdf`);
}

/** POST /api/tax/invoices/:id/send-link: the buyer gets a link to the PDF by SMS (decision 087). */
export function useSendInvoiceLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request<{ info: string; sms_id: number | null; to: string; already_sent: boolean }>('POST', sendTaxInvoiceLink.path.replace(':id', String(id))),
    // The person's SMS list shows the new message.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sms.all }),
  });
}
