/**
 * A link to an invoice by SMS (decision 087): staff text the buyer a short signed link that opens
 * the invoice or credit note as a PDF for INVOICE_LINK_DAYS days, without signing in to the portal.
 * The link names the document and its expiry and is signed (HMAC, a key derived from SECRETS_KEY)
 * over those and the phone it went to: altered, expired, or the buyer's phone no longer on the
 * document (erased) and it opens nothing. One live link a day per document; the text is kept from
 * staff once sent (a secret SMS), the sending audited.
 * Lives in: apps/api/src/modules/tax (the tax invoices' feature folder).
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { INVOICE_LINK_DAYS, invoiceLinkTexts, nairobiDayOf, nairobiDayStart, refusalTexts } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { invoiceLink } from '../../customer-texts/links.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import { customerTextFor, isErasedPhone, liveMessageSince, queueSms } from '../sms/service.ts';
import { staffMayRead } from './document.ts';
import * as q from './queries.ts';
import * as iq from './queries/identity.ts';

const INTENT = 'tax.invoice-link';
const DAY_MS = 24 * 60 * 60 * 1000;
/** 128 bits of HMAC-SHA256: short enough for an SMS, far beyond guessing. */
const SIGNATURE_BYTES = 16;

const maskedPhone = (phone: string) => `${phone.slice(0, 6)}***${phone.slice(-3)}`;

type TaxDocument = NonNullable<Awaited<ReturnType<typeof q.invoiceRow>>>;

/** As the PDF prints it: INV-00-12, CN-00-13. */
const documentNumber = (inv: TaxDocument) => `${inv.kind === 'invoice' ? 'INV' : 'CN'}-${inv.branchId}-${inv.number}`;

/**
 * The phone a document's link goes to and is bound to: the one printed on it (the payer's, copied
 * at issue), else its buyer's own (a sale without an M-Pesa payment).
 */
async function documentPhone(db: Queryable, inv: TaxDocument): Promise<{ phone: string | null; buyer: Awaited<ReturnType<typeof iq.buyerOfInvoice>> }> {
  const buyer = await iq.buyerOfInvoice(db, inv.id);
  return { phone: inv.buyerPhone ?? buyer?.phone ?? null, buyer };
}

function signatureOf(secretsKey: Buffer, invoiceId: number, expires: number, phone: string): Buffer {
  const key = createHmac('sha256', secretsKey).update('betdesk:invoice-link').digest();
  return createHmac('sha256', key).update(`${invoiceId}:${expires}:${phone}`).digest().subarray(0, SIGNATURE_BYTES);
}

/** The link's last path segment: `<id base 36>.<expiry, seconds, base 36>.<signature>`. */
export function issueInvoiceTicket(secretsKey: Buffer, invoiceId: number, phone: string, now = Date.now()): { ticket: string; expiresAt: Date } {
  const expires = Math.floor((now + INVOICE_LINK_DAYS * DAY_MS) / 1000);
  const signed = signatureOf(secretsKey, invoiceId, expires, phone).toString('base64url');
  return { ticket: `${invoiceId.toString(36)}.${expires.toString(36)}.${signed}`, expiresAt: new Date(expires * 1000) };
}

/** What a ticket says before its signature is checked against the document's phone; null when malformed. */
function ticketParts(ticket: string): { invoiceId: number; expires: number; signed: string } | null {
  const m = /^([0-9a-z]{1,12})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/.exec(ticket);
  if (!m) return null;
  const invoiceId = parseInt(m[1]!, 36);
  const expires = parseInt(m[2]!, 36);
  if (!Number.isSafeInteger(invoiceId) || invoiceId < 1 || !Number.isSafeInteger(expires)) return null;
  return { invoiceId, expires, signed: m[3]! };
}

/**
 * The document a ticket opens: `{ invoiceId }`, or why not: `invalid` (malformed, altered, the
 * document gone or no longer the phone's) or `expired` (checked after the signature, so an expiry
 * is never told for a forged ticket).
 */
export async function openInvoiceTicket(deps: AppDeps, ticket: string, now = Date.now()): Promise<{ invoiceId: number; number: string } | 'invalid' | 'expired'> {
  const parts = ticketParts(ticket);
  if (!parts) return 'invalid';
  const inv = await q.invoiceRow(deps.db, parts.invoiceId);
  const phone = inv ? (await documentPhone(deps.db, inv)).phone : null;
  if (!phone) return 'invalid';
  // Compared as text: the 22nd character holds 2 bits of the signature and 4 of padding, which a
  // decoder ignores, so only the one canonical spelling is accepted.
  const expected = Buffer.from(signatureOf(deps.config.secretsKey, parts.invoiceId, parts.expires, phone).toString('base64url'));
  const given = Buffer.from(parts.signed);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  if (parts.expires * 1000 < now) return 'expired';
  if (await isErasedPhone(deps.db, phone)) return 'invalid';
  return { invoiceId: parts.invoiceId, number: documentNumber(inv!) };
}

/**
 * POST /api/tax/invoices/:id/send-link: the buyer (the phone on the document) gets the link by SMS
 * in their language. Who may print the document may send it (else 404). The document is locked
 * while deciding, so a double click sends one: a live link of today (not failed) answers
 * `already_sent`; a failed one may be sent again.
 */
export async function sendInvoiceLink(deps: AppDeps, actor: Actor, id: number, requestId: string, now = new Date()) {
  if (!(await staffMayRead(deps.db, actor, id))) throw notFound(refusalTexts.invoiceNotFound);
  const result = await deps.db.transaction(async (tx) => {
    const inv = await q.lockInvoice(tx, id);
    if (!inv) throw notFound(refusalTexts.invoiceNotFound);
    const { phone, buyer } = await documentPhone(tx, inv);
    if (!phone) throw conflict(invoiceLinkTexts.noPhone, 'no_phone');
    if (await isErasedPhone(tx, phone)) throw conflict(invoiceLinkTexts.erased, 'erased');
    const to = maskedPhone(phone);
    const dedupePrefix = `${INTENT}:${id}:`;
    const live = await liveMessageSince(tx, { to: phone, intent: INTENT, dedupePrefix, since: nairobiDayStart(nairobiDayOf(now)) });
    if (live) return { info: invoiceLinkTexts.alreadySent, sms_id: null, to, already_sent: true };
    const { ticket, expiresAt } = issueInvoiceTicket(deps.config.secretsKey, id, phone, now.getTime());
    const number = documentNumber(inv);
    const body = await customerTextFor(tx, phone, 'sms.invoice_link', {
      number,
      link: invoiceLink(deps.config, ticket),
      days: String(INVOICE_LINK_DAYS),
      business: await getSetting(tx, 'portal_business_name'),
    });
    const smsId = await queueSms(tx, {
      intent: INTENT,
      dedupeKey: `${dedupePrefix}${randomUUID()}`,
      to: phone,
      body,
      createdBy: actor.userId,
      clientId: buyer?.client_id ?? null,
      subscriberId: buyer?.subscriber_id ?? null,
    });
    // The audit says to whom and until when, never the link: it is the buyer's key to the document.
    await audit(tx, 'tax.invoice-link', id, byStaff(actor, requestId), { after: { to, sms_id: smsId, expires_at: expiresAt.toISOString() } });
    return { info: invoiceLinkTexts.sentTo(to), sms_id: smsId, to, already_sent: false };
  });
  if (!result.already_sent) await deps.jobs.nudge(QUEUES.smsDispatch);
  return result;
}
