/**
 * Promo codes (decision 077): an admin's codes, the price a code asks for a package, and a use
 * counted exactly (the counted update on the code's row holds the cap; the unique index on
 * (code_id, phone_key) holds one use per phone), held with an STK push and used by its sale.
 * Lives in: apps/api/src/modules/promo-codes/service.ts
 */
import {
  centsToKes,
  defaultRange,
  addDays,
  kesToCents,
  nairobiDayStart,
  promoCodeTexts,
  wholeShillingsUp,
  type PageQuery,
  type PromoCode,
  type PromoCodeBody,
  type PromotionReportRow,
  type ReportRangeQuery,
} from '@betdesk/contract';
import { randomInt } from 'node:crypto';
import type { Queryable } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { isUniqueViolation } from '../../db/unique.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import type { CsvTable } from '../../http/csv.ts';
import { fieldError, notFound } from '../../http/errors.ts';
import type { CustomerTextId, Language } from '../../customer-texts/catalogue.ts';
import { audit, byStaff } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import { customerText, customerTextFor, queueSms } from '../sms/service.ts';
import * as q from './queries.ts';

const list = (v: number[] | string | string[] | null): string[] =>
  v === null ? [] : Array.isArray(v) ? v.map(String) : v.replace(/^\{|\}$/g, '').split(',').filter(Boolean).map((s) => s.replace(/^"|"$/g, ''));

function codeOf(r: q.CodeRow): PromoCode {
  return {
    id: Number(r.id),
    code: r.code,
    kind: r.kind === 'referral' ? 'percent' : r.kind,
    percent_off: r.percent_off === null ? null : Number(r.percent_off),
    amount_off: r.amount_off_cents === null ? null : centsToKes(Number(r.amount_off_cents)),
    package_ids: list(r.package_ids).map(Number),
    packages: list(r.packages),
    starts_on: iso(r.starts_at),
    ends_on: iso(r.ends_at),
    max_uses: r.max_uses === null ? null : Number(r.max_uses),
    uses: Number(r.uses),
    one_per_phone: r.one_per_phone,
    first_purchase_only: r.first_purchase_only,
    created_on: iso(r.created_at),
  };
}

function writeOf(b: PromoCodeBody): q.CodeWrite {
  return {
    code: b.code,
    kind: b.kind,
    percentOff: b.kind === 'percent' ? (b.percent_off ?? null) : null,
    amountOffCents: b.kind === 'fixed' && b.amount_off != null ? kesToCents(b.amount_off) : null,
    packageIds: [...new Set(b.package_ids)],
    startsAt: new Date(b.starts_on),
    endsAt: new Date(b.ends_on),
    maxUses: b.max_uses ?? null,
    onePerPhone: b.one_per_phone,
    firstPurchaseOnly: b.first_purchase_only,
  };
}

async function saved(db: Queryable, id: number): Promise<PromoCode> {
  return codeOf((await q.codeById(db, id))!);
}

export async function codePage(db: Queryable, query: PageQuery) {
  const offset = (query.page - 1) * query.perPage;
  const { found, total } = await q.codePage(db, { limit: query.perPage, offset });
  return { total_records: total, codes: found.map(codeOf) };
}

export async function createCode(deps: AppDeps, actor: Actor, body: PromoCodeBody, requestId: string) {
  const w = writeOf(body);
  try {
    const id = await deps.db.transaction(async (tx) => {
      if ((await q.packagesExisting(tx, w.packageIds)) !== w.packageIds.length) throw fieldError('package_ids', promoCodeTexts.noPackage);
      if (await q.codeByText(tx, w.code)) throw fieldError('code', promoCodeTexts.taken);
      const created = await q.insertCode(tx, w, actor.userId);
      await audit(tx, 'promo-code.create', created, byStaff(actor, requestId), { after: { ...body, code: w.code } });
      return created;
    });
    return { info: promoCodeTexts.created, code: await saved(deps.db, id) };
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('code', promoCodeTexts.taken);
    throw error;
  }
}

export async function updateCode(deps: AppDeps, actor: Actor, id: number, body: PromoCodeBody, requestId: string) {
  const w = writeOf(body);
  try {
    await deps.db.transaction(async (tx) => {
      const before = await q.codeById(tx, id);
      // A referral code (decision 088) is no admin's promo code: it is not listed, nor changed here.
      if (!before || before.kind === 'referral') throw notFound(promoCodeTexts.notFound);
      if ((await q.packagesExisting(tx, w.packageIds)) !== w.packageIds.length) throw fieldError('package_ids', promoCodeTexts.noPackage);
      const other = await q.codeByText(tx, w.code);
      if (other && Number(other.id) !== id) throw fieldError('code', promoCodeTexts.taken);
      const done = await q.updateCode(tx, id, w);
      if (done === 'cap') throw fieldError('max_uses', promoCodeTexts.capBelowUses);
      await audit(tx, 'promo-code.update', id, byStaff(actor, requestId), { before: codeOf(before), after: { ...body, code: w.code } });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('code', promoCodeTexts.taken);
    throw error;
  }
  return { info: promoCodeTexts.updated, code: await saved(deps.db, id) };
}

// ---- pricing and uses ---------------------------------------------------------------------------

export interface PromoPrice {
  codeId: number;
  code: string;
  onePerPhone: boolean;
  listPriceCents: number;
  discountCents: number;
  /** What the code asks: whole shillings (M-Pesa takes no cents), at least KES 1. */
  priceCents: number;
}

export type PromoRefusal = { textId: CustomerTextId; values: Record<string, string> };

/** The discounted price: the list price less the code's off, rounded up to a whole shilling, at least KES 1. */
export function discounted(listPriceCents: number, code: { kind: 'percent' | 'fixed'; percentOff: number | null; amountOffCents: number | null }): number {
  const off = code.kind === 'percent' ? Math.floor((listPriceCents * (code.percentOff ?? 0)) / 100) : (code.amountOffCents ?? 0);
  return Math.max(100, wholeShillingsUp(Math.max(0, listPriceCents - off)));
}

/**
 * What a code asks for a package from a phone, or why it cannot be used (a catalogue text).
 * `codeText` as typed; compared in capitals.
 */
export async function priceWithCode(
  db: Queryable,
  p: { codeText: string; packageId: number; listPriceCents: number; phone: string; now?: Date },
): Promise<PromoPrice | PromoRefusal> {
  const found = await codeTyped(db, p.codeText);
  if (!found.row) return { textId: 'promo.unknown', values: found.values };
  return priceOfCode(db, found.row, p);
}

/** The code a punter typed, in capitals (the refusal's value), and its row when there is one. */
async function codeTyped(db: Queryable, codeText: string): Promise<{ row: q.CodeRow | undefined; values: { code: string } }> {
  const typed = codeText.trim().toUpperCase();
  const row = /^[A-Z0-9]{1,40}$/.test(typed) ? await q.codeByText(db, typed) : undefined;
  return { row, values: { code: typed.slice(0, 40) } };
}

/** Why a code cannot be used at all at `now` (not started, expired), or null. */
function datesRefusal(row: q.CodeRow, now: Date): PromoRefusal | null {
  const values = { code: row.code };
  if (now < new Date(row.starts_at)) return { textId: 'promo.not_started', values: { ...values, date: iso(row.starts_at).slice(0, 10) } };
  if (now >= new Date(row.ends_at)) return { textId: 'promo.ended', values };
  return null;
}

/** A referral code (decision 088) is for every package; a promo code for the packages it names. */
const covers = (row: q.CodeRow, packageId: number) => row.kind === 'referral' || list(row.package_ids).map(Number).includes(packageId);

const codePrice = (row: q.CodeRow, listPriceCents: number) =>
  discounted(listPriceCents, {
    // A referral code takes nothing off: the list price (decision 088).
    kind: row.kind === 'referral' ? 'fixed' : row.kind,
    percentOff: row.percent_off === null ? null : Number(row.percent_off),
    amountOffCents: row.amount_off_cents === null ? null : Number(row.amount_off_cents),
  });

/** A found code's price for a package from a phone, or why it cannot be used: the rules in order. */
async function priceOfCode(
  db: Queryable,
  row: q.CodeRow,
  p: { packageId: number; listPriceCents: number; phone: string; now?: Date },
): Promise<PromoPrice | PromoRefusal> {
  const values = { code: row.code };
  const dated = datesRefusal(row, p.now ?? new Date());
  if (dated) return dated;
  if (!covers(row, p.packageId)) return { textId: 'promo.not_for_package', values };
  if (row.kind === 'referral' && (await isSelfReferral(db, row, p.phone, p.now ?? new Date()))) return { textId: 'referral.self', values };
  if (row.max_uses !== null && Number(row.uses) >= Number(row.max_uses)) return { textId: 'promo.spent', values };
  if (row.one_per_phone && (await q.phoneHasUse(db, Number(row.id), p.phone))) return { textId: 'promo.used_by_phone', values };
  if (row.first_purchase_only && (await q.hasBoughtBefore(db, p.phone))) return { textId: 'promo.first_purchase_only', values };
  const priceCents = codePrice(row, p.listPriceCents);
  const listPriceCents = Math.max(p.listPriceCents, priceCents);
  return { codeId: Number(row.id), code: row.code, onePerPhone: row.one_per_phone, listPriceCents, discountCents: listPriceCents - priceCents, priceCents };
}

/**
 * A code typed in the paybill account (`D2-RADIO10`, decision 086) for a payment of `amountCents`:
 * the package of the category it buys at the code's price (the amount must be that price exactly;
 * `packages` in the caller's order of preference), or why the code cannot be used, or null when the
 * amount is no price of this code (the payment then settles as without one, nothing said of the code).
 */
export async function priceForPaybill<P extends { id: number; priceCents: number }>(
  db: Queryable,
  p: { codeText: string; packages: P[]; amountCents: number; phone: string; now?: Date },
): Promise<{ pkg: P; price: PromoPrice } | PromoRefusal | null> {
  const found = await codeTyped(db, p.codeText);
  const row = found.row;
  if (!row) return { textId: 'promo.unknown', values: found.values };
  const atAmount = p.packages.filter((pkg) => codePrice(row, pkg.priceCents) === p.amountCents);
  // A package the code is for, else one it is not for (the refusal says so).
  const pkg = atAmount.find((c) => covers(row, c.id)) ?? atAmount[0];
  if (!pkg) return datesRefusal(row, p.now ?? new Date());
  const price = await priceOfCode(db, row, { packageId: pkg.id, listPriceCents: pkg.priceCents, phone: p.phone, ...(p.now ? { now: p.now } : {}) });
  return isRefusal(price) ? price : { pkg, price };
}

export const isRefusal = <T extends object>(r: T | PromoRefusal): r is PromoRefusal => 'textId' in r;

/** A refusal in the phone's language, as the 422 on `code`. */
export async function refusalError(db: Queryable, r: PromoRefusal, language: Language) {
  return fieldError('code', await customerText(db, r.textId, language, r.values));
}

/**
 * One use, counted in the caller's transaction: the counted update on the code (the cap), then the
 * use's row (one per phone). The refusal when either says no (the caller's transaction then rolls
 * the count back by throwing, or the caller sells at list price).
 */
export async function takeUse(
  tx: Queryable,
  price: PromoPrice,
  u: { phone: string; packageId: number; channel: 'portal' | 'ussd' | 'paybill'; status: 'held' | 'used'; paymentId?: number | null; subscriptionId?: number | null },
): Promise<{ useId: number } | PromoRefusal> {
  const values = { code: price.code };
  if (!(await q.countUse(tx, price.codeId))) return { textId: 'promo.spent', values };
  const useId = await q.insertUse(tx, {
    codeId: price.codeId,
    phone: u.phone,
    onePerPhone: price.onePerPhone,
    packageId: u.packageId,
    channel: u.channel,
    listPriceCents: price.listPriceCents,
    discountCents: price.discountCents,
    priceCents: price.priceCents,
    status: u.status,
    paymentId: u.paymentId ?? null,
    subscriptionId: u.subscriptionId ?? null,
  });
  if (useId === null) {
    await q.uncountUse(tx, price.codeId);
    return { textId: 'promo.used_by_phone', values };
  }
  return { useId };
}

/** The SMS intent of a paybill code that could not be used (decision 086). */
export const PROMO_REFUSED_INTENT = 'promo.refused';

/**
 * A code typed in a paybill account (decision 086), for the payment it came with: the package it
 * buys at the code's price, its use taken (held, made `used` by the sale: `markUsed`) by the same
 * counted update as a push's; or, when the code cannot be used, its reason texted to the payer from
 * the catalogue in their language (the payment then settles as without a code). Null: the amount is
 * no price of this code, nothing taken or said.
 */
export async function usePaybillCode<P extends { id: number; priceCents: number }>(
  tx: Queryable,
  p: { codeText: string; packages: P[]; amountCents: number; phone: string; paymentId: number; subscriberId: number },
): Promise<{ pkg: P; sale: { useId: number; priceCents: number; discountCents: number } } | { refusedSms: boolean } | null> {
  const found = await priceForPaybill(tx, p);
  if (found === null) return null;
  const taken = isRefusal(found) ? found : await takeUse(tx, found.price, { phone: p.phone, packageId: found.pkg.id, channel: 'paybill', status: 'held' });
  if (!isRefusal(taken) && !isRefusal(found)) {
    return { pkg: found.pkg, sale: { useId: taken.useId, priceCents: found.price.priceCents, discountCents: found.price.discountCents } };
  }
  const refusal = taken as PromoRefusal;
  const id = await queueSms(tx, {
    intent: PROMO_REFUSED_INTENT,
    dedupeKey: `${PROMO_REFUSED_INTENT}:${p.paymentId}`,
    to: p.phone,
    body: await customerTextFor(tx, p.phone, refusal.textId, refusal.values),
    subscriberId: p.subscriberId,
    createdBy: null,
  });
  return { refusedSms: id !== null };
}

/**
 * A referral code in the paybill account (`D2-123456`, decision 088) of a payment that buys a
 * package at its list price (a referral code takes nothing off, so the list price is its price):
 * its use taken, held, for the sale to mark used; null when the code is no referral code or cannot
 * be used (the sale goes ahead at list price, nothing said: the buyer lost nothing).
 */
export async function usePaybillReferral(tx: Queryable, p: { codeText: string; pkg: { id: number; priceCents: number }; phone: string }): Promise<number | null> {
  const found = await codeTyped(tx, p.codeText);
  if (!found.row || found.row.kind !== 'referral') return null;
  const price = await priceOfCode(tx, found.row, { packageId: p.pkg.id, listPriceCents: p.pkg.priceCents, phone: p.phone });
  if (isRefusal(price) || price.priceCents !== p.pkg.priceCents) return null;
  const taken = await takeUse(tx, price, { phone: p.phone, packageId: p.pkg.id, channel: 'paybill', status: 'held' });
  return isRefusal(taken) ? null : taken.useId;
}

export const attachStkRequest = q.attachStkRequest;
export const heldUseOfRequest = q.heldUseOfRequest;
export const markUsed = q.markUsed;
export const releaseUsesOfRequest = q.releaseUsesOfRequest;

/**
 * The discount a sale was made with (its eTIMS line carries it, decision 081): the list price and
 * the cents off, or null for a sale at list price.
 */
export async function discountOfSale(db: Queryable, subscriptionId: number): Promise<{ listPriceCents: number; discountCents: number; priceCents: number } | null> {
  const use = await q.usedUseOfSale(db, subscriptionId);
  if (!use || Number(use.discount_cents) <= 0) return null;
  return { listPriceCents: Number(use.list_price_cents), discountCents: Number(use.discount_cents), priceCents: Number(use.price_cents) };
}

/** A held use whose push ended unpaid: released, the cap given its use back. */
export async function releaseHeldUse(tx: Queryable, useId: number): Promise<void> {
  const codeId = await q.releaseHeld(tx, useId);
  if (codeId !== null) await q.uncountUse(tx, codeId);
}

// ---- referral codes (decision 088) ---------------------------------------------------------------

export type ReferralOwner = q.ReferralOwner;

/**
 * Self-referral, refused: the code's owner's own phone, or a phone that paid from the same M-Pesa
 * name as the owner's within `referral_same_name_days`.
 */
export async function isSelfReferral(db: Queryable, row: { owner_phone: string | null }, phone: string, now: Date): Promise<boolean> {
  if (row.owner_phone === null) return false;
  if (row.owner_phone === phone) return true;
  const days = await getSetting(db, 'referral_same_name_days');
  return q.paidFromSameName(db, phone, row.owner_phone, new Date(now.getTime() - days * 86_400_000));
}

/** Whether the referee of a referral paid from the same M-Pesa name as its owner (read again when it is rewarded). */
export async function referralIsSelf(db: Queryable, ownerPhone: string, refereePhone: string, now: Date): Promise<boolean> {
  return isSelfReferral(db, { owner_phone: ownerPhone }, refereePhone, now);
}

// Digits only: many phones type only digits in a USSD reply (decision 077's amendment).
const REFERRAL_DIGITS = 6;
const drawReferralCode = () => String(randomInt(10 ** (REFERRAL_DIGITS - 1), 10 ** REFERRAL_DIGITS));

/**
 * A subscriber's or an agent's referral code, made on first asking: six digits drawn again while
 * taken (promo codes and referral codes share one namespace, the unique index on `code`).
 */
export async function referralCode(db: Queryable, owner: ReferralOwner): Promise<string> {
  for (;;) {
    const existing = await q.referralCodeOf(db, owner);
    if (existing) return existing;
    await q.insertReferralCode(db, drawReferralCode(), owner);
  }
}

// ---- the promotion report -----------------------------------------------------------------------

export async function promotionReport(db: Queryable, query: ReportRangeQuery) {
  const range = defaultRange({ from: query.from, to: query.to, group: 'month' });
  const found = await q.reportBetween(db, nairobiDayStart(range.from), nairobiDayStart(addDays(range.to, 1)));
  const rows = found.map(
    (r): PromotionReportRow => ({
      code_id: Number(r.code_id),
      code: r.code,
      uses: Number(r.uses),
      income: centsToKes(Number(r.income_cents)),
      discount: centsToKes(Number(r.discount_cents)),
      renewed_30: Number(r.renewed_30),
      renewed_90: Number(r.renewed_90),
    }),
  );
  return { from: range.from, to: range.to, rows };
}

export async function promotionReportCsv(db: Queryable, query: ReportRangeQuery): Promise<CsvTable<PromotionReportRow>> {
  const report = await promotionReport(db, query);
  return {
    filename: `report-promotions-${report.from}-to-${report.to}`,
    columns: [
      { header: 'Code', value: (r) => r.code },
      { header: 'Uses', value: (r) => r.uses },
      { header: 'Income (KES)', value: (r) => r.income },
      { header: 'Discount given (KES)', value: (r) => r.discount },
      { header: 'Bought again within 30 days', value: (r) => r.renewed_30 },
      { header: 'Bought again within 90 days', value: (r) => r.renewed_90 },
    ],
    rows: [report.rows],
  };
}
