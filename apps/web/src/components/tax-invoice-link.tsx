import { Anchor, Text } from '@mantine/core';
import type { InvoiceRef } from '@betdesk/contract';

/**
 * A sale's KRA tax invoice, wherever the sale is shown (a payment, a subscription): its number, a
 * link to KRA's verification page (the QR's content) once KRA signed it, else its status. `block`
 * puts it on its own line (under a payee in a narrow column).
 */
export function TaxInvoiceLink({ invoice, testId, ml, block }: { invoice: InvoiceRef | null | undefined; testId: string; ml?: 'xs'; block?: boolean }) {
  const display = block ? 'block' : undefined;
  if (!invoice) return null;
  const label = `Invoice ${invoice.number}`;
  return invoice.qr ? (
    <Anchor href={invoice.qr} target="_blank" rel="noreferrer" size="sm" ml={ml} display={display} title="KRA's verification page (the invoice's QR)" data-testid={testId}>
      {label}
    </Anchor>
  ) : (
    <Text span size="sm" c="dimmed" ml={ml} display={display} title={`Tax invoice ${invoice.status}`} data-testid={testId}>
      {label} ({invoice.status})
    </Text>
  );
}
