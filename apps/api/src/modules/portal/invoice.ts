import QRCode from 'qrcode';
import type { InvoiceRef } from '@betdesk/contract';
import type { Language } from '../../customer-texts/catalogue.ts';
import { fixedText } from '../../customer-texts/texts.ts';
import { html, trusted, type Html } from './html.ts';

/**
 * A sale's KRA tax invoice on the portal (the purchase page and My subscriptions): its number, and
 * once KRA has signed it, its verification QR drawn here as inline SVG (no script, no request) with
 * the same address as a link for a phone that cannot scan its own screen.
 */
export function invoiceBlock(invoice: InvoiceRef | null, language: Language): Html | '' {
  if (!invoice) return '';
  // Numbers as text: ICU would group an invoice number's digits (1,234).
  // The punter's own printable invoice (decision 074), opened with the portal's cookie.
  const pdf = html`<a href="/api/portal/invoices/${String(invoice.id)}/document" data-testid="invoice-pdf">${fixedText('portal.invoice_document', language)}</a>`;
  if (!invoice.qr) {
    return html`<p class="meta" data-invoice="${invoice.number}">${fixedText('portal.invoice_pending', language, { number: String(invoice.number) })} ${pdf}</p>`;
  }
  const words = fixedText('portal.invoice_sent', language, { number: String(invoice.number), kraReceipt: String(invoice.kra_receipt_number ?? '') });
  const link = fixedText('portal.invoice_link', language);
  return html`<div class="invoice" data-invoice="${invoice.number}"><p class="meta">${words}</p>
${qrSvg(invoice.qr, link)}
<p><a href="${invoice.qr}" rel="noreferrer">${link}</a> · ${pdf}</p></div>`;
}

/** The QR of a text as one SVG path (dark modules), 4 modules of quiet zone, 132 px square. */
export function qrSvg(text: string, label: string): Html {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  let path = '';
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (modules.get(row, col)) path += `M${col + 4} ${row + 4}h1v1h-1z`;
    }
  }
  const box = size + 8;
  return html`<svg role="img" aria-label="${label}" width="132" height="132" viewBox="0 0 ${box} ${box}" shape-rendering="crispEdges"><rect width="${box}" height="${box}" fill="#fff"/>${trusted(`<path fill="#000" d="${path}"/>`)}</svg>`;
}
