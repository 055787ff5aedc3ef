import { Anchor, Text } from '@mantine/core';
import type { InvoiceRef } from '@betdesk/contract';

/**
 * A sale's KRA tax invoice, wherever the sale is shown (a payment, a subscription): its number, a
 * link to KRA's verification page (the QR's content) once KRA signed it, else its status.
 */
export function TaxInvoiceLink({ invoice, testId, ml }: { invoice: InvoiceRef | null | undefined; testId: string; ml?: 'xs' }) {
  if (!invoice) return null;
  const label = `Invoice ${invoice.number}`;
  return invoice.qr ? (
    <Anchor href={invoice.qr} target="_blank" rel="noreferrer" size="sm" ml={ml} title="KRA's verification page (the invoice's QR)" data-testid={testId}>
      {label}
    </Anchor>
  ) : (
    <Text span size="sm" c="dimmed" ml={ml} title={`Tax invoice ${invoice.status}`} data-testid={testId}>
      {label} ({invoice.status})
    </Text>
  );
}
