import { kesFixed } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { Language } from '../../customer-texts/catalogue.ts';
import { customerDateTime, fill } from '../../customer-texts/format.ts';
import { fixedText } from '../../customer-texts/texts.ts';
import { getSettings, settingsColumn } from '../settings/service.ts';
import { customerText, queueSmsInTheirLanguage, type RidingSms, ridingSmsInTheirLanguage } from '../sms/service.ts';
import { saleInvoiceNumber } from '../tax/service.ts';
import * as matchingQ from './queries/matching.ts';
import * as settlementQ from './queries/settlement.ts';

export const TIPS_RECEIPT_INTENT = 'tips.receipt';
export const TIPS_CREDIT_INTENT = 'tips.credit';

/** A category's packages as the prices text lists them, in a language. */
function packageList(packages: Awaited<ReturnType<typeof settlementQ.pricesOfCategory>>, language: Language): string {
  return packages
    .map((p) => {
      const values = { medium: p.medium === 'sms' ? 'SMS' : 'Web', days: p.days, price: kesFixed(p.priceCents) };
      // A daily package (decision 095) is priced per day: any multiple of it buys that many days.
      return fixedText(p.billing === 'daily' ? 'sms.price_line_daily' : 'sms.price_line', language, values);
    })
    .join(', ');
}

/** A category and its packages, for a prices text; null when there is no such category or it has no package. */
async function categoryWithPackages(db: Queryable, betCategoryId: number) {
  const category = await settlementQ.categoryById(db, betCategoryId);
  if (!category) return null;
  const packages = await settlementQ.pricesOfCategory(db, betCategoryId);
  return packages.length > 0 ? { category, packages } : null;
}

/** The prices text's values for a category in a language. */
function pricesValues(c: NonNullable<Awaited<ReturnType<typeof categoryWithPackages>>>, language: Language) {
  return { category: c.category.name, packages: packageList(c.packages, language), code: c.category.code };
}

/** A category's packages and how to pay, from the `tips_prices_sms` setting in a language; null when it has none. */
export async function categoryPricesText(db: Queryable, betCategoryId: number, language: Language): Promise<string | null> {
  const found = await categoryWithPackages(db, betCategoryId);
  return found && customerText(db, 'tips_prices_sms', language, pricesValues(found, language));
}

/** The subscriber's name and phone, when the caller read them already (the match by phone). */
export type KnownPayer = { name: string; phone: string };

/** The payer and the payment's receipt; `receipt` and `known` given when the caller knows them (fewer reads). */
async function payerOf(db: Queryable, paymentId: number, subscriberId: number, receipt: string | null | undefined, known?: KnownPayer) {
  const subscriber = known ?? (await matchingQ.subscriberNameAndPhone(db, subscriberId));
  if (!subscriber) return null;
  if (receipt !== undefined) return { ...subscriber, receipt: receipt ?? 'M-Pesa' };
  return { ...subscriber, receipt: (await matchingQ.receiptOf(db, paymentId)) ?? 'M-Pesa' };
}

/** The settings a tips receipt reads, in one read: the default language, the receipt's wording, the invoice line. */
const RECEIPT_SETTINGS = ['customer_language_default', 'tips_receipt_sms', 'tips_receipt_sms_sw', 'receipt_sms_invoice_line'] as const;
export type ReceiptSettings = Awaited<ReturnType<typeof receiptSettings>>;

export function receiptSettings(tx: Queryable) {
  return getSettings(tx, RECEIPT_SETTINGS);
}

/** The receipt's settings as a column of the purchase's read of packages (`latestSubscriptionAndPackagesPriced`). */
export const receiptSettingsColumn = settingsColumn(RECEIPT_SETTINGS);

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
    /** The subscriber's name and phone when the caller read them (else read here). */
    payer?: KnownPayer;
    /**
     * The caller writes the receipt with the sale's invoice, the transaction's last statement (it
     * answers `riding`, queued then, before today's tip): only when the text needs no invoice number.
     */
    ride?: boolean;
  },
): Promise<{ queued: boolean; phone: string | null; riding?: RidingSms }> {
  const payer = await payerOf(tx, r.paymentId, r.subscriberId, r.receipt, r.payer);
  if (!payer) return { queued: false, phone: null };
  const settings = r.settings ?? (await receiptSettings(tx));
  // With `receipt_sms_invoice_line` on, the sale's invoice number as a short line: taken in the sale's
  // transaction before this SMS (decision 035; its KRA receipt and QR are on the portal). Off, the sale
  // is numbered last, after this SMS (decision 044).
  const number = settings.receipt_sms_invoice_line ? await saleInvoiceNumber(tx, r.subscriptionId) : null;
  // The text in both languages: the phone's chosen language picks one as the SMS is queued (one statement).
  const bodyIn = (language: Language) => {
    const receiptText = fill(language === 'en' ? settings.tips_receipt_sms : settings.tips_receipt_sms_sw, {
      name: payer.name,
      amount: kesFixed(r.amountCents),
      receipt: payer.receipt,
      package: r.packageName,
      expiry: customerDateTime(r.expiresAt, language),
    }, language);
    return number === null ? receiptText : `${receiptText} ${fixedText('sms.receipt_invoice_line', language, { number: String(number) })}`;
  };
  const sms = {
    intent: TIPS_RECEIPT_INTENT,
    dedupeKey: `${TIPS_RECEIPT_INTENT}:${r.paymentId}:${r.subscriptionId}`,
    to: payer.phone,
    bodies: { en: bodyIn('en'), sw: bodyIn('sw') },
    fallback: settings.customer_language_default,
    subscriberId: r.subscriberId,
    createdBy: r.createdBy,
  };
  if (r.ride && number === null) {
    const riding = ridingSmsInTheirLanguage(sms);
    return riding ? { queued: true, phone: payer.phone, riding } : { queued: false, phone: payer.phone };
  }
  const id = await queueSmsInTheirLanguage(tx, sms);
  return { queued: id !== null, phone: payer.phone };
}

/** The settings a credit notice reads, in one read: the default language, and its wording and the prices' in both languages. */
const CREDIT_SETTINGS = ['customer_language_default', 'tips_credit_sms', 'tips_credit_sms_sw', 'tips_prices_sms', 'tips_prices_sms_sw'] as const;

/**
 * A payment that bought nothing: the payer learns it is credit, with the category's prices. Written
 * in both languages: the phone's chosen language picks one as the SMS is queued (as the receipt).
 */
export async function queueCreditNotice(
  tx: Queryable,
  r: {
    paymentId: number;
    subscriberId: number;
    betCategoryId: number;
    amountCents: number;
    createdBy: number | null;
    /** The payment's M-Pesa receipt and the subscriber's name and phone, when the caller has them (fewer reads). */
    receipt?: string | null;
    payer?: KnownPayer;
  },
): Promise<boolean> {
  const payer = await payerOf(tx, r.paymentId, r.subscriberId, r.receipt, r.payer);
  if (!payer) return false;
  const found = await categoryWithPackages(tx, r.betCategoryId);
  if (!found) return false;
  const settings = await getSettings(tx, CREDIT_SETTINGS);
  const bodyIn = (language: Language) => {
    const english = language === 'en';
    const prices = fill(english ? settings.tips_prices_sms : settings.tips_prices_sms_sw, pricesValues(found, language), language);
    return fill(english ? settings.tips_credit_sms : settings.tips_credit_sms_sw, { amount: kesFixed(r.amountCents), receipt: payer.receipt, prices }, language);
  };
  const id = await queueSmsInTheirLanguage(tx, {
    intent: TIPS_CREDIT_INTENT,
    dedupeKey: `${TIPS_CREDIT_INTENT}:${r.paymentId}:${r.subscriberId}`,
    to: payer.phone,
    bodies: { en: bodyIn('en'), sw: bodyIn('sw') },
    fallback: settings.customer_language_default,
    subscriberId: r.subscriberId,
    createdBy: r.createdBy,
  });
  return id !== null;
}
