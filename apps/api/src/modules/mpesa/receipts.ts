import { kesFixed } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { Language } from '../../customer-texts/catalogue.ts';
import { fill, smsDateTime } from '../../customer-texts/format.ts';
import { customerText, fixedText } from '../../customer-texts/texts.ts';
import { getSettings } from '../settings/service.ts';
import { chosenLanguage, languageOf, queueSms } from '../sms/service.ts';
import { saleInvoiceNumber } from '../tax/service.ts';
import * as q from './queries.ts';

export const TIPS_RECEIPT_INTENT = 'tips.receipt';
export const TIPS_CREDIT_INTENT = 'tips.credit';

/** A category's packages and how to pay, from the `tips_prices_sms` setting in a language; null when it has none. */
export async function categoryPricesText(db: Queryable, betCategoryId: number, language: Language): Promise<string | null> {
  const category = await q.categoryById(db, betCategoryId);
  if (!category) return null;
  const packages = await q.pricesOfCategory(db, betCategoryId);
  if (packages.length === 0) return null;
  const list = packages
    .map((p) => fixedText('sms.price_line', language, { medium: p.medium === 'sms' ? 'SMS' : 'Web', days: p.days, price: kesFixed(p.priceCents) }))
    .join(', ');
  return customerText(db, 'tips_prices_sms', language, { category: category.name, packages: list, code: category.code });
}

/** The payer and the payment's receipt; `receipt` given when the caller knows it (one read fewer). */
async function payerOf(db: Queryable, paymentId: number, subscriberId: number, receipt: string | null | undefined) {
  const subscriber = await q.subscriberNameAndPhone(db, subscriberId);
  if (!subscriber) return null;
  if (receipt !== undefined) return { ...subscriber, receipt: receipt ?? 'M-Pesa' };
  return { ...subscriber, receipt: (await q.receiptOf(db, paymentId)) ?? 'M-Pesa' };
}

/** The settings a tips receipt reads, in one read: the default language, the receipt's wording, the invoice line. */
const RECEIPT_SETTINGS = ['customer_language_default', 'tips_receipt_sms', 'tips_receipt_sms_sw', 'receipt_sms_invoice_line'] as const;
export type ReceiptSettings = Awaited<ReturnType<typeof receiptSettings>>;

export function receiptSettings(tx: Queryable) {
  return getSettings(tx, RECEIPT_SETTINGS);
}

/**
 * The receipt SMS of a tips package a payment started (transactional, so it reaches an opted-out
 * phone too). Queued before today's tip, so the payer reads it first. Returns whether it was queued
 * and the payer's phone (null: no such subscriber), which today's tip goes to as well. `settings`
 * are the receipt's settings when the caller read them already.
 */
export async function queueTipsReceipt(
  tx: Queryable,
  r: {
    paymentId: number;
    /** The payment's M-Pesa receipt when the caller has it; read from the payment otherwise. */
    receipt?: string | null;
    subscriberId: number;
    subscriptionId: number;
    packageName: string;
    amountCents: number;
    expiresAt: Date;
    createdBy: number | null;
    settings?: ReceiptSettings;
  },
): Promise<{ queued: boolean; phone: string | null }> {
  const payer = await payerOf(tx, r.paymentId, r.subscriberId, r.receipt);
  if (!payer) return { queued: false, phone: null };
  const settings = r.settings ?? (await receiptSettings(tx));
  const language = (await chosenLanguage(tx, payer.phone)) ?? settings.customer_language_default;
  const receiptText = fill(language === 'en' ? settings.tips_receipt_sms : settings.tips_receipt_sms_sw, {
    name: payer.name,
    amount: kesFixed(r.amountCents),
    receipt: payer.receipt,
    package: r.packageName,
    expiry: smsDateTime(r.expiresAt),
  }, language);
  const invoiceLine = settings.receipt_sms_invoice_line ? await invoiceLineOf(tx, r.subscriptionId, language) : null;
  const body = invoiceLine ? `${receiptText} ${invoiceLine}` : receiptText;
  const id = await queueSms(tx, {
    intent: TIPS_RECEIPT_INTENT,
    dedupeKey: `${TIPS_RECEIPT_INTENT}:${r.paymentId}:${r.subscriptionId}`,
    to: payer.phone,
    body,
    subscriberId: r.subscriberId,
    createdBy: r.createdBy,
  });
  return { queued: id !== null, phone: payer.phone };
}

/**
 * With the `receipt_sms_invoice_line` setting on, the sale's tax invoice number as a short line
 * (decision 035): the number is taken in the sale's own transaction, before this SMS is queued, so
 * the receipt can carry it although KRA receives the invoice later; its KRA receipt and QR are on
 * the portal. Null when the sale has no invoice. (With the setting off, the sale is numbered last,
 * after this SMS: decision 044.)
 */
async function invoiceLineOf(tx: Queryable, subscriptionId: number, language: Language): Promise<string | null> {
  const number = await saleInvoiceNumber(tx, subscriptionId);
  return number === null ? null : fixedText('sms.receipt_invoice_line', language, { number: String(number) });
}

/** A payment that bought nothing: the payer learns it is credit, with the category's prices. */
export async function queueCreditNotice(
  tx: Queryable,
  r: { paymentId: number; subscriberId: number; betCategoryId: number; amountCents: number; createdBy: number | null },
): Promise<boolean> {
  const payer = await payerOf(tx, r.paymentId, r.subscriberId, undefined);
  if (!payer) return false;
  const language = await languageOf(tx, payer.phone);
  const prices = await categoryPricesText(tx, r.betCategoryId, language);
  if (prices === null) return false;
  const body = await customerText(tx, 'tips_credit_sms', language, {
    amount: kesFixed(r.amountCents),
    receipt: payer.receipt,
    prices,
  });
  const id = await queueSms(tx, {
    intent: TIPS_CREDIT_INTENT,
    dedupeKey: `${TIPS_CREDIT_INTENT}:${r.paymentId}:${r.subscriberId}`,
    to: payer.phone,
    body,
    subscriberId: r.subscriberId,
    createdBy: r.createdBy,
  });
  return id !== null;
}
