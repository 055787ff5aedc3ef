/**
 * "SMS link": texts the buyer a link to the invoice or credit note as a PDF (decision 087). The
 * server picks the phone (the one on the document) and sends one live link a day; the toast says
 * to which phone, or that one already went today.
 * Lives in: apps/web/src/components/tax-identity (the invoice rows of the Tax screen and the buyer's card).
 */
import { Button } from '@mantine/core';
import { useSendInvoiceLink } from './api.ts';

export function SendInvoiceLinkButton({ id, number, testId }: { id: number; number: number; testId: string }) {
  const send = useSendInvoiceLink();
  return (
    <Button
      size="compact-sm"
      variant="subtle"
      loading={send.isPending}
      aria-label={`Send a link to invoice ${number} by SMS`}
      data-testid={testId}
      // The answer's text (sent to which phone, or already sent today) shows as the request's toast.
      onClick={() => send.mutate(id)}
    >
      SMS link
    </Button>
  );
}
