/**
 * The refunds' customer-facing texts, English and Kiswahili, in ICU-style `{placeholder}` form,
 * until they join the single catalogue (apps/api/src/customer-texts/).
 */
export const refundCustomerTexts = {
  refundSent: {
    en: 'Refund: KES {amount} of your payment {receipt} has been returned to your M-Pesa (M-Pesa receipt {refundReceipt}). {business}',
    sw: 'Marejesho: KES {amount} ya malipo yako {receipt} yamerudishwa kwenye M-Pesa yako (risiti ya M-Pesa {refundReceipt}). {business}',
  },
} as const;

/** Fills `{name}` placeholders. */
export function fillText(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
