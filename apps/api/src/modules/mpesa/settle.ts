import type { SQL } from 'drizzle-orm';
import { typedObjectOf, type TypedColumn } from '../../db/columns.ts';
import { daysPaidFor, priceForDays } from '@betdesk/contract';
import type { PackageBilling, TipsMedium } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import type { RidingSms } from '../sms/service.ts';
import { payPendingBonuses, reverseBonusPaymentsOfPayment } from '../bonuses/service.ts';
import { postLedgerEntry } from '../ledger/service.ts';
import { activateSubscription, reverseSubscriptionsOfPayment, type SaleWrites } from '../subscriptions/service.ts';
import type { Payee } from './matching.ts';
import * as q from './queries/settlement.ts';
import { queueCreditNotice, queueTipsReceipt, receiptSettings, receiptSettingsColumn, type KnownPayer, type ReceiptSettings } from './receipts.ts';
import type { Sale } from '../tax/service.ts';
import type { AuditEntry } from '../audit/service.ts';
import { markUsed, usePaybillCode, usePaybillReferral } from '../promo-codes/service.ts';
import * as matchingQ from './queries/matching.ts';
import { todaysTipColumn, type TodaysTip } from '../tips-sms/service.ts';

/** What an STK push asked for: it decides over the general rules (the payer chose it). */
export type RequestedItem = { packageId: number; days?: number; promo?: PromoSale } | { planId: number } | { bonus: true };

/** A promo code use that makes the sale at its discounted price (decision 077). */
export interface PromoSale {
  useId: number;
  priceCents: number;
  discountCents: number;
}

export interface Settlement {
  paymentId: number;
  amountCents: number;
  payee: Payee;
  /** The payment's M-Pesa receipt when the caller has it (saves reading it back for the SMS receipt). */
  transId?: string | null;
  /** The payer's full phone when the caller has it (null: M-Pesa hid it), for the sale's invoice. */
  buyerPhone?: string | null;
  /** A subscriber payee's name and phone when the caller read them (saves reading them for the receipt). */
  payer?: KnownPayer;
  /** The bet category the account number named (tips), if any. */
  betCategoryId: number | null;
  source: 'mpesa' | 'stk' | 'ratiba';
  requested?: RequestedItem | null;
  actorUserId: number | null;
  requestId?: string | null;
  /**
   * Where a sale's invoice and a tips subscription's audit row are written (`SaleWrites`): with
   * `last`, the caller writes them as the last statement of its transaction, with the outcome's
   * `saleToInvoice` and `audits` (the C2B purchase's `PURCHASE_WRITES`); otherwise when the sale is made.
   * The invoice is numbered now anyway when the receipt SMS carries its number (`receipt_sms_invoice_line`).
   */
  writes?: SaleWrites;
  /** The payment's credit to the payee was posted with its row, in one statement (a C2B confirmation). */
  credited?: boolean;
  /**
   * The promo code the paybill account carries ("D2-RADIO10": `promoCodeInAccount`, decision 086): a
   * tips payment that buys no package at its list price may buy one at the code's price.
   */
  promoCode?: string | null;
  /**
   * What a tips payment may buy, when the caller read it with its own first read (`saleLookupFor`),
   * for this subscriber, the category the account named and this amount: used only when all three
   * are the settlement's.
   */
  looked?: { subscriberId: number; betCategoryId: number | null; amountCents: number; found: TipsSaleLookup };
}

/** The columns a tips payment's look-up reads with the packages: the receipt's settings and today's tip of the category. */
const saleLookupAlso = (category: SQL) => typedObjectOf({ settings: receiptSettingsColumn, tip: todaysTipColumn(category) });

/** What a tips payment may buy, with the receipt's settings and today's tip (`saleLookupFor`). */
export type TipsSaleLookup = q.SaleLookup<ReturnType<ReturnType<typeof saleLookupAlso>['read']>>;

/**
 * A tips settlement's look-up as a typed column of the caller's read (`Settlement.looked`): for the
 * subscriber and named category given as SQL expressions of that read.
 */
export function saleLookupFor(subscriberId: SQL, namedCategoryId: SQL, amountCents: number): TypedColumn<TipsSaleLookup> {
  return q.saleLookupColumn(subscriberId, namedCategoryId, amountCents, saleLookupAlso);
}

export interface SettlementOutcome {
  bonusPaidCents: number;
  subscriptionId: number | null;
  /** A tips SMS package was activated: the subscriber should get the current tip. */
  activatedSms: { subscriberId: number; betCategoryId: number; phone?: string; todaysTip?: TodaysTip | null } | null;
  /** A receipt or credit SMS was queued: nudge the SMS queue after commit. */
  smsQueued?: boolean;
  /** The sale the caller invoices as the last statement of its transaction (`queueSaleInvoice`). */
  saleToInvoice?: Sale | null;
  /** With `writes.audit` `last`: the audit rows the caller writes with its own, in one statement. */
  audits?: AuditEntry[];
  /**
   * Messages the caller writes with the sale's invoice (`saleToInvoice`, always set with them), in
   * this order and before any of its own (`smsInOrderRider`): the receipt SMS.
   */
  ridingSms?: RidingSms[];
}

/**
 * What a matched (or claimed) payment buys, per BUSINESS-RULES.md. The payment is first credited to
 * the payee's account; what it buys is then debited by the money services, so the ledger always
 * tells where every shilling went. Run it in the payment's transaction.
 */
export async function settlePayment(tx: Queryable, s: Settlement): Promise<SettlementOutcome> {
  if (!s.credited) await postLedgerEntry(tx, {
    holder: s.payee,
    amountCents: s.amountCents,
    kind: 'payment',
    paymentId: s.paymentId,
    createdBy: s.actorUserId,
  });
  return 'clientId' in s.payee ? settleClient(tx, s, s.payee.clientId) : settleSubscriber(tx, s, s.payee.subscriberId);
}

async function settleClient(tx: Queryable, s: Settlement, clientId: number): Promise<SettlementOutcome> {
  const outcome: SettlementOutcome = { bonusPaidCents: 0, subscriptionId: null, activatedSms: null };
  const requested = s.requested;
  const buyPlan = async (plan: { id: number; durationDays: number; priceCents: number }) => {
    const sub = await activateSubscription(tx, {
      what: { clientId, planId: plan.id },
      durationDays: plan.durationDays,
      amountCents: plan.priceCents,
      source: s.source,
      paymentId: s.paymentId,
      createdBy: s.actorUserId,
      requestId: s.requestId ?? null,
    });
    outcome.subscriptionId = sub.id;
  };

  if (requested && 'planId' in requested) {
    const plan = await q.planById(tx, requested.planId);
    if (plan && s.amountCents >= plan.priceCents) await buyPlan(plan);
    return outcome;
  }
  const paid = await payPendingBonuses(tx, {
    clientId,
    amountCents: s.amountCents,
    source: 'mpesa',
    description: 'Paid by M-Pesa',
    paymentId: s.paymentId,
    actorUserId: s.actorUserId,
    requestId: s.requestId ?? null,
  });
  outcome.bonusPaidCents = paid.paidCents;
  if (requested) return outcome;
  const rest = s.amountCents - paid.paidCents;
  if (rest > 0) {
    const plan = await q.activePlanPriced(tx, rest);
    if (plan) await buyPlan(plan);
  }
  return outcome;
}

async function settleSubscriber(tx: Queryable, s: Settlement, subscriberId: number): Promise<SettlementOutcome> {
  const outcome: SettlementOutcome = { bonusPaidCents: 0, subscriptionId: null, activatedSms: null };
  let latest: { betCategoryId: number | null; medium: TipsMedium | null } | null = null;

  let chosen: { id: number; name: string; betCategoryId: number; medium: TipsMedium; durationDays: number; priceCents: number; billing: PackageBilling } | undefined;
  /** The days of a daily package bought (decision 095): the sale's length and its invoice line's quantity. */
  let days: number | null = null;
  let settings: ReceiptSettings | undefined;
  let tip: TodaysTip | null | undefined;
  const requested = s.requested;
  /** The use of a code in the paybill account that this sale makes (decision 086). */
  let paybillUseId: number | null = null;
  if (requested && 'packageId' in requested) {
    // What the payer chose decides; a payment that cannot buy it stays credit, without a notice.
    // A promo code's use asks its discounted price, and the sale is made at it.
    // A daily package (decision 095) buys the days asked (a Ratiba debit asks none: one day), at days x its day price.
    const pkg = await q.packageById(tx, requested.packageId);
    const promo = requested.promo;
    const asked = pkg?.billing === 'daily' ? (requested.days ?? 1) : null;
    const listCents = pkg ? priceForDays(pkg, asked ?? 1) : 0;
    if (pkg && s.amountCents >= (promo ? promo.priceCents : listCents)) {
      chosen = { ...pkg, priceCents: promo ? promo.priceCents : listCents };
      days = asked;
    }
  } else {
    // The category the account named, else the one the subscriber last bought: the subscriber's
    // latest subscription and the packages at this price in one read.
    // The receipt's settings and the category's tip of today come with them (two round trips fewer).
    const looked = s.looked;
    const found =
      looked && looked.subscriberId === subscriberId && looked.betCategoryId === s.betCategoryId && looked.amountCents === s.amountCents
        ? looked.found
        : await q.latestSubscriptionAndPackagesPriced(tx, subscriberId, s.betCategoryId, s.amountCents, saleLookupAlso);
    latest = found.latest;
    settings = found.also.settings;
    tip = found.also.tip;
    // SMS is preferred over web, unless the subscriber's latest subscription was web.
    const preferred: TipsMedium = latest?.medium === 'web' ? 'web' : 'sms';
    // A package at exactly this price first; else a daily one the amount buys whole days of (decision 095).
    const exact = found.fits.filter((p) => p.priceCents === s.amountCents);
    const byDays = found.fits.filter((p) => p.priceCents !== s.amountCents);
    const pick = (fits: typeof found.fits) => fits.find((p) => p.medium === preferred) ?? fits[0];
    chosen = pick(exact) ?? pick(byDays);
    if (chosen?.billing === 'daily') {
      days = daysPaidFor(chosen.priceCents, s.amountCents);
      chosen = { ...chosen, priceCents: s.amountCents };
    }
    // A code in the account is tried only when no package is at this list price (the list price
    // buys without using it): the amount must be the code's price of one of the category's packages.
    // A referral code in the account (decision 088) rides a list-price purchase: its use is the referral.
    if (chosen && s.promoCode && s.betCategoryId !== null) {
      const phone = s.payer?.phone ?? (await matchingQ.subscriberNameAndPhone(tx, subscriberId))?.phone;
      if (phone) paybillUseId = await usePaybillReferral(tx, { codeText: s.promoCode, pkg: chosen, phone });
    }
    if (!chosen && s.promoCode && s.betCategoryId !== null) {
      const packages = (await q.packagesOfCategory(tx, s.betCategoryId)).sort((a, b) => Number(b.medium === preferred) - Number(a.medium === preferred));
      const phone = s.payer?.phone ?? (await matchingQ.subscriberNameAndPhone(tx, subscriberId))?.phone;
      const used = phone
        ? await usePaybillCode(tx, { codeText: s.promoCode, packages, amountCents: s.amountCents, phone, paymentId: s.paymentId, subscriberId })
        : null;
      if (used && 'sale' in used) {
        // A code in the account prices one day of a daily package (its list price is one day's).
        chosen = { ...used.pkg, priceCents: used.sale.priceCents };
        days = used.pkg.billing === 'daily' ? 1 : null;
        paybillUseId = used.sale.useId;
      } else if (used?.refusedSms) {
        // The reason goes before the credit notice; the payment settles as without a code.
        outcome.smsQueued = true;
      }
    }
  }
  if (!chosen) {
    const categoryId = s.betCategoryId ?? latest?.betCategoryId ?? null;
    if (categoryId !== null && !requested) {
      const noticed = await queueCreditNotice(tx, {
        paymentId: s.paymentId,
        subscriberId,
        betCategoryId: categoryId,
        amountCents: s.amountCents,
        createdBy: s.actorUserId,
        ...(s.transId !== undefined ? { receipt: s.transId } : {}),
        ...(s.payer ? { payer: s.payer } : {}),
      });
      outcome.smsQueued = noticed || outcome.smsQueued === true;
    }
    return outcome;
  }
  settings ??= await receiptSettings(tx);
  const sub = await activateSubscription(tx, {
    what: { subscriberId, packageId: chosen.id, betCategoryId: chosen.betCategoryId, medium: chosen.medium },
    durationDays: days ?? chosen.durationDays,
    amountCents: chosen.priceCents,
    source: s.source,
    paymentId: s.paymentId,
    createdBy: s.actorUserId,
    requestId: s.requestId ?? null,
    invoice: {
      itemName: chosen.name,
      ...(days !== null ? { quantity: days } : {}),
      ...(s.buyerPhone !== undefined ? { buyerPhone: s.buyerPhone } : {}),
    },
    // The receipt's invoice line needs the number before the receipt; otherwise the sale is numbered
    // last, so that the branch's counter is held only to the commit (decision 044).
    writes: {
      invoice: s.writes?.invoice === 'last' && !settings.receipt_sms_invoice_line ? 'last' : 'now',
      audit: s.writes?.audit ?? 'now',
    },
  });
  outcome.subscriptionId = sub.id;
  const useId = requested && 'packageId' in requested && requested.promo ? requested.promo.useId : paybillUseId;
  if (useId !== null) await markUsed(tx, useId, { paymentId: s.paymentId, subscriptionId: sub.id });
  outcome.saleToInvoice = sub.sale;
  if (sub.audit) outcome.audits = [sub.audit];
  const receipt = await queueTipsReceipt(tx, {
    paymentId: s.paymentId,
    receipt: s.transId,
    subscriberId,
    subscriptionId: sub.id,
    packageName: chosen.name,
    amountCents: s.amountCents,
    expiresAt: sub.expiresAt,
    createdBy: s.actorUserId,
    settings,
    ...(s.payer ? { payer: s.payer } : {}),
    // Written with the sale's invoice, last (before today's tip, in the same insert: the payer reads the receipt first).
    ride: sub.sale != null,
  });
  outcome.smsQueued = receipt.queued;
  if (receipt.riding) outcome.ridingSms = [receipt.riding];
  if (chosen.medium === 'sms') {
    outcome.activatedSms = {
      subscriberId,
      betCategoryId: chosen.betCategoryId,
      ...(receipt.phone ? { phone: receipt.phone } : {}),
      ...(tip !== undefined ? { todaysTip: tip } : {}),
    };
  }
  return outcome;
}

/**
 * Undoes a wrong claim with compensating entries: the subscription it bought ends and is refunded to
 * the account, the bonuses it paid are pending again, then the payment's credit is taken back.
 * Afterwards the payment's entries on the payee's ledger sum to zero.
 */
export async function unsettlePayment(
  tx: Queryable,
  u: { paymentId: number; amountCents: number; payee: Payee; actorUserId: number; requestId?: string | null },
): Promise<void> {
  const note = `Payment ${u.paymentId} unclaimed`;
  await reverseSubscriptionsOfPayment(tx, { paymentId: u.paymentId, actorUserId: u.actorUserId, requestId: u.requestId ?? null, note });
  await reverseBonusPaymentsOfPayment(tx, {
    paymentId: u.paymentId,
    actorUserId: u.actorUserId,
    requestId: u.requestId ?? null,
    description: `Reversed: ${note.toLowerCase()}`,
  });
  await postLedgerEntry(tx, {
    holder: u.payee,
    amountCents: -u.amountCents,
    kind: 'adjustment',
    paymentId: u.paymentId,
    note,
    createdBy: u.actorUserId,
  });
}
