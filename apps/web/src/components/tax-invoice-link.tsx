import { Anchor, Text } from '@mantine/core';
import { downloadInvoiceDocument } from './tax-identity/api.ts';
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
  // The printable invoice (decision 074), beside the number.
  const pdf = (
    <Anchor component="button" type="button" size="sm" ml="xs" onClick={() => void downloadInvoiceDocument(invoice.id, invoice.number)} data-testid={`${testId}-pdf`}>
      PDF
    </Anchor>
  );
  return invoice.qr ? (
    <>

    <Anchor href={invoice.qr} target="_blank" rel="noreferrer" size="sm" ml={ml} display={display} title="KRA's verification page (the invoice's QR)" data-testid={testId}>
      {label}
    </Anchor>
    {pdf}
    </>
  ) : (
    <>

    <Text span size="sm" c="dimmed" ml={ml} display={display} title={`Tax invoice ${invoice.status}`} data-testid={testId}>
      {label} ({invoice.status})
    </Text>
    {pdf}
    </>
  );
}
