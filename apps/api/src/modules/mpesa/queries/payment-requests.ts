// Payment requests (STK pushes).
import { and, asc, desc, eq, lte, or, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { PaymentRequest } from '@betdesk/contract';
import { rows } from '../../../db/rows.ts';
import { bet4mePlans, betCategories, mpesaPayments, pricePackages, stkRequests } from '../../../db/schema/index.ts';
import type { Queryable } from '../../../db/client.ts';
import { releaseUsesOfRequest } from '../../promo-codes/service.ts';

export type StkRequestRow = typeof stkRequests.$inferSelect;

/** The tips packages for sale, with their category, by category name, medium and days. */
export async function packagesForSale(db: Queryable) {
  return db
    .select({
      id: pricePackages.id,
      name: pricePackages.name,
      medium: pricePackages.medium,
      durationDays: pricePackages.durationDays,
      priceCents: pricePackages.priceCents,
      billing: pricePackages.billing,
      category: betCategories.name,
      code: betCategories.code,
    })
    .from(pricePackages)
    .innerJoin(betCategories, eq(betCategories.id, pricePackages.betCategoryId))
    .where(sql`${pricePackages.priceCents} > 0`)
    .orderBy(asc(betCategories.name), asc(pricePackages.medium), asc(pricePackages.durationDays));
}

/** The active Bet4Me plans for sale, shortest first. */
export async function plansForSale(db: Queryable) {
  return db
    .select()
    .from(bet4mePlans)
    .where(and(eq(bet4mePlans.active, true), sql`${bet4mePlans.priceCents} > 0`))
    .orderBy(asc(bet4mePlans.durationDays));
}

/** The category's cheapest SMS package for sale (the shortest of equal prices). */
export async function cheapestSmsPackage(db: Queryable, betCategoryId: number): Promise<number | null> {
  const [cheapest] = await db
    .select({ id: pricePackages.id })
    .from(pricePackages)
    .where(and(eq(pricePackages.betCategoryId, betCategoryId), eq(pricePackages.medium, 'sms'), sql`${pricePackages.priceCents} > 0`))
    .orderBy(asc(pricePackages.priceCents), asc(pricePackages.durationDays))
    .limit(1);
  return cheapest?.id ?? null;
}

export interface PaymentRequestRow {
  id: number;
  phone: string;
  amount_cents: string;
  item: string | null;
  status: PaymentRequest['status'];
  result_desc: string | null;
  receipt: string | null;
  requested_at: string;
}

/** Payment requests (one, or a payer's newest) with what they asked for and the receipt they were paid with. */
export async function paymentRequestRows(
  db: Queryable,
  of: { id: number } | { clientId: number } | { subscriberId: number },
  limit: number,
): Promise<PaymentRequestRow[]> {
  const where = 'id' in of ? sql`r.id = ${of.id}` : 'clientId' in of ? sql`r.client_id = ${of.clientId}` : sql`r.subscriber_id = ${of.subscriberId}`;
  return rows<PaymentRequestRow>(db, sql`
    select r.id, r.phone, r.amount_cents, r.status, r.result_desc, r.requested_at, p.trans_id as receipt,
           case r.purpose when 'bonus' then 'Pending bonus'
                          when 'plan' then pl.name || ' plan'
                          else pp.name end as item
      from ${stkRequests} r
      left join ${mpesaPayments} p on p.id = r.payment_id
      left join ${bet4mePlans} pl on pl.id = r.plan_id
      left join ${pricePackages} pp on pp.id = r.package_id
     where ${where}
     order by r.requested_at desc, r.id desc
     limit ${limit}`);
}

export async function insertPaymentRequest(tx: Queryable, request: PgInsertValue<typeof stkRequests>): Promise<number> {
  const inserted = await tx.insert(stkRequests).values(request).returning({ id: stkRequests.id });
  return inserted[0]!.id;
}

/** Daraja took the push: its ids, which the callback and the STK query name. */
export async function markRequestSent(db: Queryable, id: number, ids: { merchantRequestId: string; checkoutRequestId: string }) {
  await db.update(stkRequests).set(ids).where(eq(stkRequests.id, id));
}

/** Daraja refused the push (or could not be reached): the request failed now. */
export async function markRequestRefused(db: Queryable, id: number, reason: string) {
  await db
    .update(stkRequests)
    .set({ status: 'failed', resultDesc: reason, settledAt: sql`now()` })
    .where(eq(stkRequests.id, id));
  await releaseUsesOfRequest(db, id);
}

/** The client a request was sent for (null for a tips subscriber); undefined when no such request. */
export async function clientOfRequest(db: Queryable, id: number) {
  const [found] = await db.select({ clientId: stkRequests.clientId }).from(stkRequests).where(eq(stkRequests.id, id));
  return found;
}

/** Pending requests sent (and last asked about) before the cutoff, newest first, at most `limit`. */
export async function requestsToRecheck(db: Queryable, cutoff: Date, limit: number) {
  return db
    .select({ id: stkRequests.id, checkoutRequestId: stkRequests.checkoutRequestId })
    .from(stkRequests)
    .where(
      and(
        eq(stkRequests.status, 'pending'),
        lte(stkRequests.requestedAt, cutoff),
        or(sql`${stkRequests.queriedAt} is null`, lte(stkRequests.queriedAt, cutoff)),
      ),
    )
    .orderBy(desc(stkRequests.requestedAt))
    .limit(limit);
}

export async function lockRequest(tx: Queryable, id: number): Promise<StkRequestRow | undefined> {
  const [request] = await tx.select().from(stkRequests).where(eq(stkRequests.id, id)).for('update');
  return request;
}

export async function lockRequestByCheckout(tx: Queryable, checkoutRequestId: string): Promise<StkRequestRow | undefined> {
  const [request] = await tx.select().from(stkRequests).where(eq(stkRequests.checkoutRequestId, checkoutRequestId)).for('update');
  return request;
}

/**
 * Writes what was learnt of a request (its end, or an STK query asked); `settledNow` and
 * `queriedNow` stamp settled_at and queried_at with the database's time.
 */
export async function recordRequestAnswer(
  tx: Queryable,
  id: number,
  answer: Omit<Partial<typeof stkRequests.$inferInsert>, 'settledAt' | 'queriedAt'>,
  stamp: { settledNow?: boolean; queriedNow?: boolean },
) {
  await tx
    .update(stkRequests)
    .set({
      ...(stamp.queriedNow ? { queriedAt: sql`now()` } : {}),
      ...answer,
      ...(stamp.settledNow ? { settledAt: sql`now()` } : {}),
    })
    .where(eq(stkRequests.id, id));
  // A push that ended unpaid gives back the promo code use it held (decision 077).
  if (answer.status === 'failed' || answer.status === 'cancelled') await releaseUsesOfRequest(tx, id);
}
