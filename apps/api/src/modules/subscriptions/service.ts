import { SUBSCRIPTION_SOURCES } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { centsToKes, type Bet4meSubscription, type RefundReason, type SortOf } from '@betdesk/contract';
import { csvDateTime, csvPhone, queryBatches, type CsvTable } from '../../http/csv.ts';
import { dayRangeOf, pageOf, rowsAndCount, type ListRequest, type Page } from '../../db/list.ts';
import type { AppDeps } from '../../deps.ts';
import { audit, auditAll, auditEntry, type AuditEntry } from '../audit/service.ts';
import { postLedgerEntry, postWithLedgerEntry } from '../ledger/service.ts';
import { creditReversedSale, queueSaleInvoice, type Sale } from '../tax/service.ts';
export { runSubscriptionExpiry } from './expiry.ts';
import * as subscriptionQueries from './queries.ts';

export type SubscriptionSource = (typeof SUBSCRIPTION_SOURCES)[number];

/**
 * Where an activation's sale invoice and audit row are written. `now`: by the activation, in its own
 * statements. `last`: answered (`sale`, `audit`) for the caller to write in its transaction's last
 * statement (the C2B purchase, `PurchasePlan` in modules/mpesa/purchase-plan.ts): the invoice's
 * numbering takes the branch's counter, so the shorter it is held before the commit the better
 * (decision 044), and the audit row rides with it (one round trip).
 */
export interface SaleWrites {
  invoice: 'now' | 'last';
  audit: 'now' | 'last';
}

export interface Activation {
  what: subscriptionQueries.WhatIsBought;
  durationDays: number;
  amountCents: number;
  source: SubscriptionSource;
  /** The payment that bought it (mpesa/stk): at most one subscription per payment. */
  paymentId?: number | null;
  createdBy?: number | null;
  requestId?: string | null;
  /** What the sale's invoice would otherwise read: the package's or plan's name, the payer's phone; a daily package's days (its line's quantity, decision 095). */
  invoice?: Pick<Sale, 'itemName' | 'buyerPhone' | 'quantity'>;
  /** Where the sale's invoice and the activation's audit row are written (`SaleWrites`); both now when not given. */
  writes?: SaleWrites;
}

/**
 * Starts or renews a subscription. Renewal stacks (BUSINESS-RULES.md): the new period starts at the
 * later of now and the current expiry of the same thing (a client's Bet4Me plan; a subscriber's
 * category and medium). When bought from the account (`mpesa`, `stk`, `balance`) the price is
 * debited from the holder's ledger; a `manual` subscription is recorded with the staff user only,
 * and a `trial` (amount 0, decision 089) with nothing: neither is a sale.
 * Returns the new subscription's id and expiry (and the sale and audit row the caller said it writes).
 */
export async function activateSubscription(
  tx: Queryable,
  a: Activation,
): Promise<{ id: number; startsAt: Date; expiresAt: Date; sale: Sale | null; audit: AuditEntry | null }> {
  // One statement: the subscription, stacked after the holder's current one of the same thing (its
  // row locked, so two activations at once stack instead of overlapping), and, bought from the
  // account (`mpesa`, `stk`, `balance`), the price debited from the holder's ledger.
  const written = subscriptionQueries.stackedSubscriptionInsert(
    tx,
    a.what,
    {
      clientId: 'clientId' in a.what ? a.what.clientId : null,
      planId: 'clientId' in a.what ? a.what.planId : null,
      subscriberId: 'subscriberId' in a.what ? a.what.subscriberId : null,
      packageId: 'subscriberId' in a.what ? a.what.packageId : null,
      betCategoryId: 'subscriberId' in a.what ? a.what.betCategoryId : null,
      medium: 'subscriberId' in a.what ? a.what.medium : null,
      durationDays: a.durationDays,
      amountCents: a.amountCents,
      source: a.source,
      paymentId: a.paymentId ?? null,
      createdBy: a.createdBy ?? null,
    },
    { now: new Date(), durationDays: a.durationDays },
  );
  const unpaid = a.source === 'manual' || a.source === 'trial';
  const [row] =
    unpaid
      ? await subscriptionQueries.rowsOf(tx, written)
      : await postWithLedgerEntry<{ id: unknown }>(tx, written, 'subscriptionId', {
          holder: 'clientId' in a.what ? { clientId: a.what.clientId } : { subscriberId: a.what.subscriberId },
          amountCents: -a.amountCents,
          kind: 'subscription',
          paymentId: a.paymentId ?? null,
          createdBy: a.createdBy ?? null,
        });
  const { id, startsAt, expiresAt } = subscriptionQueries.stackedSubscriptionRow(row!);

  // Bought with money (not a staff member's manual grant, nor a free trial, decision 089): a sale,
  // invoiced in this transaction.
  const sale: Sale | null =
    unpaid
      ? null
      : {
          subscriptionId: id,
          paymentId: a.paymentId ?? null,
          what: 'clientId' in a.what ? { planId: a.what.planId } : { packageId: a.what.packageId },
          amountCents: a.amountCents,
          createdBy: a.createdBy ?? null,
          ...a.invoice,
        };
  const invoiceLast = a.writes?.invoice === 'last';
  const auditLast = a.writes?.audit === 'last';
  if (sale && !invoiceLast) await queueSaleInvoice(tx, sale);
  const activated = auditEntry('subscription.activate', id, { actorUserId: a.createdBy ?? null, requestId: a.requestId }, {
    after: { ...a.what, amount_cents: a.amountCents, source: a.source, starts_at: startsAt, expires_at: expiresAt },
  });
  if (!auditLast) await auditAll(tx, [activated]);
  return { id, startsAt, expiresAt, sale: invoiceLast ? sale : null, audit: auditLast ? activated : null };
}

/**
 * Voids a free trial that could not be set up (decision 089: its standing order was refused by
 * M-Pesa): it ends now, as if never given, and never counts anywhere. Audited.
 */
export async function withdrawTrial(tx: Queryable, r: { subscriptionId: number; requestId: string | null; note: string }): Promise<void> {
  const now = new Date();
  await subscriptionQueries.markSubscriptionReversed(tx, r.subscriptionId, now, now);
  await audit(tx, 'subscription.reverse', r.subscriptionId, { actorUserId: null, requestId: r.requestId }, {
    after: { reversed_at: now, note: r.note, source: 'trial' },
  });
}

/**
 * Undoes the subscription a payment bought (its claim was wrong): the period ends now (or never
 * starts), the price goes back to the holder's account by a compensating ledger entry, and the
 * subscription lets go of the payment so a correct claim can buy again. Nothing is deleted.
 * Returns how many subscriptions were reversed.
 */
export async function reverseSubscriptionsOfPayment(
  tx: Queryable,
  r: { paymentId: number; actorUserId: number | null; requestId?: string | null; note: string; refundReason?: RefundReason },
): Promise<number> {
  const bought = await subscriptionQueries.lockSubscriptionsBoughtWith(tx, r.paymentId);
  for (const sub of bought) {
    const now = new Date();
    const endsAt = sub.expiresAt < now ? sub.expiresAt : sub.startsAt > now ? sub.startsAt : now;
    await subscriptionQueries.markSubscriptionReversed(tx, sub.id, endsAt, now);
    if (sub.source !== 'manual') {
      await postLedgerEntry(tx, {
        holder: sub.clientId !== null ? { clientId: sub.clientId } : { subscriberId: sub.subscriberId! },
        amountCents: sub.amountCents,
        kind: 'adjustment',
        subscriptionId: sub.id,
        paymentId: r.paymentId,
        note: r.note,
        createdBy: r.actorUserId,
      });
      // The sale is undone: its invoice gets a credit note (receipt type R) for the whole price.
      await creditReversedSale(tx, { subscriptionId: sub.id, reason: r.note, createdBy: r.actorUserId, refundReason: r.refundReason });
    }
    await audit(tx, 'subscription.reverse', sub.id, r, {
      before: { payment_id: sub.paymentId, expires_at: sub.expiresAt, lapsed_at: sub.lapsedAt },
      after: { payment_id: null, expires_at: endsAt, lapsed_at: now, reversed_at: now, note: r.note },
    });
  }
  return bought.length;
}

/**
 * A refund returned part of what bought this subscription: its price drops by the refund, its
 * period shrinks in proportion (from its start), and the refunded share goes back to the holder's
 * account by a compensating entry (the refund then takes it out). Returns the new end.
 */
export async function shortenSubscriptionForRefund(
  tx: Queryable,
  r: { subscriptionId: number; refundCents: number; actorUserId: number | null; note: string },
): Promise<Date | null> {
  const sub = await subscriptionQueries.lockSubscription(tx, r.subscriptionId);
  if (!sub || sub.reversedAt || sub.amountCents <= 0) return null;
  const refund = Math.min(r.refundCents, sub.amountCents);
  const keptShare = (sub.amountCents - refund) / sub.amountCents;
  const expiresAt = new Date(sub.startsAt.getTime() + (sub.expiresAt.getTime() - sub.startsAt.getTime()) * keptShare);
  await subscriptionQueries.setSubscriptionPriceAndExpiry(tx, sub.id, sub.amountCents - refund, expiresAt);
  if (sub.source !== 'manual') {
    await postLedgerEntry(tx, {
      holder: sub.clientId !== null ? { clientId: sub.clientId } : { subscriberId: sub.subscriberId! },
      amountCents: refund,
      kind: 'adjustment',
      subscriptionId: sub.id,
      paymentId: sub.paymentId,
      note: r.note,
      createdBy: r.actorUserId,
    });
  }
  await audit(tx, 'subscription.shorten', sub.id, { actorUserId: r.actorUserId }, {
    before: { amount_cents: sub.amountCents, expires_at: sub.expiresAt },
    after: { amount_cents: sub.amountCents - refund, expires_at: expiresAt, note: r.note },
  });
  return expiresAt;
}

// ---- Bet4Me subscription lists --------------------------------------------------------------

type SubscriptionQuery = ListRequest<SortOf<'allSubscriptions'>>;

/** Chosen days replace the recent window, so the rows cover the same days as the income beside them. */
function listWhere(which: 'recent' | 'all', f: Omit<SubscriptionQuery, 'page' | 'perPage'>) {
  return subscriptionQueries.subscriptionListWhere(which, dayRangeOf(f));
}

/**
 * The admin's Bet4Me subscriptions screens: recent (last days) or all, with the income totals of the
 * days shown. Lists of whole days are counted from the summaries; the recent window off its index.
 */
export async function subscriptionsPage(db: Queryable, which: 'recent' | 'all', query: SubscriptionQuery) {
  const where = listWhere(which, query);
  const order = subscriptionQueries.subscriptionListOrder(query);
  const range = dayRangeOf(query);
  const income = subscriptionQueries.clientSubscriptionIncome(db, range);
  const countedFromSummaries = which === 'all' || Boolean(range.from || range.to);
  const [list, totalRecords, totals] = await Promise.all([
    subscriptionQueries.findClientSubscriptions(db, where, pageOf(query), order),
    countedFromSummaries ? income.then((i) => i.subscriptions) : subscriptionQueries.countClientSubscriptions(db, where),
    income,
  ]);
  return {
    total_records: totalRecords,
    subscriptions: list,
    total_income: centsToKes(totals.totalCents),
    total_income_today: centsToKes(totals.todayCents),
  };
}

/** A client's subscriptions (the client page's sub-list); the caller has checked the scope. */
export async function subscriptionsOfClient(db: Queryable, clientId: number, page: Page | null) {
  const where = subscriptionQueries.subscriptionsOfClientWhere(clientId);
  return rowsAndCount(page, subscriptionQueries.findClientSubscriptions(db, where, page), () => subscriptionQueries.countClientSubscriptions(db, where));
}

const subscriptionColumns: CsvTable<Bet4meSubscription>['columns'] = [
  { header: 'Name', value: (s) => s.name },
  { header: 'Phone', value: (s) => csvPhone(s.phone) },
  { header: 'Amount (KES)', value: (s) => s.amount },
  { header: 'Duration', value: (s) => `${s.duration} ${s.duration === 1 ? 'day' : 'days'}` },
  { header: 'Done On', value: (s) => csvDateTime(s.done_on) },
  { header: 'Expiry Date', value: (s) => csvDateTime(s.expiry_date) },
  { header: 'Status', value: (s) => s.status_name },
];

export function subscriptionsCsv(
  deps: AppDeps,
  filter: ({ which: 'recent' | 'all' } & Omit<SubscriptionQuery, 'page' | 'perPage'>) | { clientId: number },
): CsvTable<Bet4meSubscription> {
  const where = 'clientId' in filter ? subscriptionQueries.subscriptionsOfClientWhere(filter.clientId) : listWhere(filter.which, filter);
  const order = 'clientId' in filter ? subscriptionQueries.newestSubscriptionsFirst : subscriptionQueries.subscriptionListOrder(filter);
  return {
    filename: 'clientId' in filter ? 'client-subscriptions' : `${filter.which}-subscriptions`,
    columns: subscriptionColumns,
    rows: queryBatches(deps.database, subscriptionQueries.clientSubscriptionsExportQuery(where, order), subscriptionQueries.toSubscription),
  };
}

/** One subscription, locked for a change in the caller's transaction; undefined when there is none. */
export function lockSubscriptionForChange(tx: Queryable, id: number) {
  return subscriptionQueries.lockSubscription(tx, id);
}

/** A pause moves a tips subscription's end (and the renewals stacked after it) by its days (decision 090). */
export function moveSubscriptionEndForPause(tx: Queryable, sub: subscriptionQueries.SubscriptionRow, days: number): Promise<Date> {
  return subscriptionQueries.moveSubscriptionEnd(tx, sub, days);
}
