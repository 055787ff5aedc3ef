/**
 * An invoice a buyer can hold (decision 074): one invoice or credit note as a PDF, A4 or an 80 mm
 * receipt, in English or Kiswahili: the seller's PIN and name, the buyer's where known, the line,
 * taxable value and VAT per rate, KRA's receipt number, signature and internal data, and the
 * verification QR (drawn as vector squares from the same QR modules the portal draws).
 * Lives in: apps/api/src/modules/tax (the tax invoices' feature folder).
 */
import type { FastifyReply } from 'fastify';
import QRCode from 'qrcode';
import { kesFixed, nairobiDayOf, refusalTexts } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { isLanguage, type Language } from '../../customer-texts/catalogue.ts';
import { fixedText } from '../../customer-texts/texts.ts';
import { getSetting } from '../settings/service.ts';
import { languageOf } from '../sms/service.ts';
import * as q from './queries.ts';
import * as iq from './queries/identity.ts';
import { discountRate, lineDiscountOf, lineQuantity, qrOf, TAX_RATES } from './invoices.ts';

export type DocumentSize = 'a4' | 'receipt';

/** What the document prints, read once. */
async function documentFacts(deps: AppDeps, id: number) {
  const inv = await q.invoiceRow(deps.db, id);
  if (!inv) throw notFound(refusalTexts.invoiceNotFound);
  const device = await q.deviceOf(deps.db);
  const original = inv.originalId ? await q.invoiceRow(deps.db, inv.originalId) : undefined;
  return {
    inv,
    original,
    sellerPin: device?.tin ?? '',
    sellerName: await getSetting(deps.db, 'portal_business_name'),
    qr: await qrOf(deps, device, inv.kraSignature, inv.branchId),
    // A promo-code sale: its list price and discount, as KRA's line has them (decision 081).
    discount: await lineDiscountOf(deps.db, inv),
  };
}

/**
 * Whether a staff member may print this document: an admin any; staff one of a tips subscriber
 * (every staff member serves them) or of a client in their scope; not a bonus's (no sale).
 */
export async function staffMayRead(db: Queryable, actor: Actor, invoiceId: number): Promise<boolean> {
  if (actor.role === 'admin') return true;
  const buyer = await iq.buyerOfInvoice(db, invoiceId);
  if (!buyer) return false;
  return buyer.subscriber_id !== null || (buyer.client_id !== null && buyer.assigned_user_id === actor.userId);
}

/** The document's language: asked for, else the buyer's own (the phone's), else the business's default. */
async function languageFor(deps: AppDeps, asked: string | undefined, buyerPhone: string | null): Promise<Language> {
  if (asked && isLanguage(asked)) return asked;
  if (buyerPhone) return languageOf(deps.db, buyerPhone);
  return getSetting(deps.db, 'customer_language_default');
}

const money = (cents: number) => kesFixed(cents);

/** The PDF's bytes. `compress: false` keeps its text readable to a text extractor and a search. */
export async function invoicePdf(deps: AppDeps, id: number, o: { size: DocumentSize; lang?: string | undefined }): Promise<{ pdf: Buffer; filename: string }> {
  const f = await documentFacts(deps, id);
  const lang = await languageFor(deps, o.lang, f.inv.buyerPhone);
  const t = (key: Parameters<typeof fixedText>[0], values: Record<string, string> = {}) => fixedText(key, lang, values);
  const receipt = o.size === 'receipt';
  // pdfkit (with its font engine) loads on the first invoice printed, not at every process's boot.
  const { default: Pdf } = await import('pdfkit');
  const doc = new Pdf({
    size: receipt ? [227, 640] : 'A4',
    margin: receipt ? 10 : 50,
    compress: false,
    info: { Title: `${f.inv.kind === 'invoice' ? 'INV' : 'CN'}-${f.inv.branchId}-${f.inv.number}`, Author: f.sellerName },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));

  const small = receipt ? 7 : 10;
  const credit = f.inv.kind === 'credit_note';
  const number = `${credit ? 'CN' : 'INV'}-${f.inv.branchId}-${f.inv.number}`;
  const taxable = f.inv.amountCents - f.inv.taxCents;
  const line = (label: string, value: string) => doc.font('Helvetica-Bold').fontSize(small).text(`${label}: `, { continued: true }).font('Helvetica').text(value);

  doc.font('Helvetica-Bold').fontSize(receipt ? 11 : 18).text(credit ? t('invoice.credit_title') : t('invoice.title'), { align: 'center' });
  doc.moveDown(0.5);
  line(t('invoice.seller'), f.sellerName);
  line(t('invoice.pin'), f.sellerPin);
  doc.moveDown(0.3);
  line(t('invoice.buyer'), f.inv.buyerName ?? '-');
  if (f.inv.buyerPin) line(t('invoice.pin'), f.inv.buyerPin);
  if (f.inv.buyerPhone) line(t('invoice.phone'), `${f.inv.buyerPhone.slice(0, 6)}***${f.inv.buyerPhone.slice(-3)}`);
  doc.moveDown(0.3);
  line(t('invoice.number'), number);
  if (f.original) line(t('invoice.original'), `INV-${f.original.branchId}-${f.original.number}`);
  line(t('invoice.date'), `${nairobiDayOf(f.inv.createdAt)}`);
  doc.moveDown(0.5);
  line(t('invoice.item'), f.inv.itemName);
  // A daily package's sale (decision 095): its days at the day price, as the line sent to KRA says.
  const listCents = f.discount ? f.discount.listPriceCents : f.inv.amountCents;
  const quantity = lineQuantity(f.inv, listCents);
  if (quantity > 1) line(t('invoice.quantity'), t('invoice.quantity_line', { quantity: String(quantity), price: money(listCents / quantity) }));
  if (f.discount) {
    line(t('invoice.list_price'), money(f.discount.listPriceCents));
    line(t('invoice.discount'), `${money(f.discount.discountCents)} (${discountRate(f.discount).toFixed(2)}%)`);
  }
  line(t('invoice.amount'), money(f.inv.amountCents));
  doc.moveDown(0.3);
  doc.font('Helvetica-Bold').fontSize(small).text(t('invoice.rate', { rate: `${f.inv.taxType} (${TAX_RATES[f.inv.taxType]}%)` }));
  line(t('invoice.taxable'), money(taxable));
  line(t('invoice.vat'), money(f.inv.taxCents));
  line(t('invoice.total'), money(f.inv.amountCents));
  doc.moveDown(0.5);
  if (f.inv.status === 'sent' && f.qr) {
    line(t('invoice.kra_receipt'), String(f.inv.kraReceiptNumber ?? ''));
    if (f.inv.kraSdcId) line(t('invoice.cu_number'), `${f.inv.kraSdcId}/${f.inv.kraReceiptNumber ?? ''}`);
    line(t('invoice.signature'), f.inv.kraSignature ?? '');
    if (f.inv.kraInternalData) line(t('invoice.internal_data'), f.inv.kraInternalData);
    doc.moveDown(0.5);
    drawQr(doc, f.qr, receipt ? 120 : 140);
    doc.font('Helvetica').fontSize(small).text(t('invoice.scan'), { align: receipt ? 'center' : 'left' });
  } else {
    doc.font('Helvetica-Oblique').fontSize(small).text(t('invoice.not_yet_sent'));
  }
  doc.end();
  return { pdf: await done, filename: `${number}${receipt ? '-receipt' : ''}.pdf` };
}

/** The QR of a text as black squares, one per dark module, with a quiet zone of four modules. */
function drawQr(doc: PDFKit.PDFDocument, text: string, sizePt: number) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const cell = sizePt / (n + 8);
  const x0 = doc.x + 4 * cell;
  const y0 = doc.y + 4 * cell;
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (modules.get(row, col)) doc.rect(x0 + col * cell, y0 + row * cell, cell, cell);
    }
  }
  doc.fill('#000');
  doc.y = y0 + (n + 4) * cell;
}

/** Answers with the PDF, to open in the browser (inline) under its invoice number. */
export function sendInvoicePdf(reply: FastifyReply, d: { pdf: Buffer; filename: string }): FastifyReply {
  return reply.type('application/pdf').header('content-disposition', `inline; filename="${d.filename}"`).header('cache-control', 'private, no-store').send(d.pdf);
}
