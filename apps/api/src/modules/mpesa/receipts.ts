import { and, asc, eq, gt } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE, kesFixed } from '@betdesk/contract';
import { betCategories, mpesaPayments, pricePackages, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { getSetting } from '../settings/service.ts';
import { queueSms } from '../sms/service.ts';

export const TIPS_RECEIPT_INTENT = 'tips.receipt';
export const TIPS_CREDIT_INTENT = 'tips.credit';

const expiryFormat = new Intl.DateTimeFormat('en-KE', {
  timeZone: BUSINESS_TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});


function fill(template: string, values: Record<string, string>): string {
  return Object.entries(values).reduce((text, [key, value]) => text.replaceAll(`{${key}}`, value), template);
}

/** A category's packages and how to pay, from the `tips_prices_sms` setting; null when it has none. */
export async function categoryPricesText(db: Queryable, betCategoryId: number): Promise<string | null> {
  const [category] = await db.select().from(betCategories).where(eq(betCategories.id, betCategoryId));
  if (!category) return null;
  const packages = await db
    .select({ medium: pricePackages.medium, days: pricePackages.durationDays, priceCents: pricePackages.priceCents })
    .from(pricePackages)
    .where(and(eq(pricePackages.betCategoryId, betCategoryId), gt(pricePackages.priceCents, 0)))
    .orderBy(asc(pricePackages.medium), asc(pricePackages.durationDays))
    .limit(10);
  if (packages.length === 0) return null;
  const list = packages
    .map((p) => `${p.medium === 'sms' ? 'SMS' : 'Web'} ${p.days} day${p.days === 1 ? '' : 's'} KES ${kesFixed(p.priceCents)}`)
    .join(', ');
  return fill(await getSetting(db, 'tips_prices_sms'), { category: category.name, packages: list, code: category.code });
}

/** The payer and the payment's receipt; `receipt` given when the caller knows it (one read fewer). */
async function payerOf(db: Queryable, paymentId: number, subscriberId: number, receipt: string | null | undefined) {
  const [subscriber] = await db
    .select({ name: tipsSubscribers.name, phone: tipsSubscribers.phone })
    .from(tipsSubscribers)
    .where(eq(tipsSubscribers.id, subscriberId));
  if (!subscriber) return null;
  if (receipt !== undefined) return { ...subscriber, receipt: receipt ?? 'M-Pesa' };
  const [payment] = await db.select({ transId: mpesaPayments.transId }).from(mpesaPayments).where(eq(mpesaPayments.id, paymentId));
  return { ...subscriber, receipt: payment?.transId ?? 'M-Pesa' };
}

/**
 * The receipt SMS of a tips package a payment started (transactional, so it reaches an opted-out
 * phone too). Queued before today's tip, so the payer reads it first. Returns whether it was queued
 * and the payer's phone (null: no such subscriber), which today's tip goes to as well.
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
  },
): Promise<{ queued: boolean; phone: string | null }> {
  const payer = await payerOf(tx, r.paymentId, r.subscriberId, r.receipt);
  if (!payer) return { queued: false, phone: null };
  const body = fill(await getSetting(tx, 'tips_receipt_sms'), {
    name: payer.name,
    amount: kesFixed(r.amountCents),
    receipt: payer.receipt,
    package: r.packageName,
    expiry: expiryFormat.format(r.expiresAt),
  });
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

/** A payment that bought nothing: the payer learns it is credit, with the category's prices. */
export async function queueCreditNotice(
  tx: Queryable,
  r: { paymentId: number; subscriberId: number; betCategoryId: number; amountCents: number; createdBy: number | null },
): Promise<boolean> {
  const payer = await payerOf(tx, r.paymentId, r.subscriberId, undefined);
  const prices = await categoryPricesText(tx, r.betCategoryId);
  if (!payer || prices === null) return false;
  const body = fill(await getSetting(tx, 'tips_credit_sms'), {
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
