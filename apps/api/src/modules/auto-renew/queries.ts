import { and, desc, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { betCategories, pricePackages, standingOrders, subscriptions, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';

export type StandingOrderRecord = typeof standingOrders.$inferSelect;
type NewStandingOrder = typeof standingOrders.$inferInsert;

/** The statuses of a standing order that may still take money. */
export const LIVE = ['requested', 'pending', 'active'] as const;

/** A subscriber's tips subscription with its package (null when it is not theirs, reversed or not a package). */
export async function subscriptionWithPackage(db: Queryable, subscriberId: number, subscriptionId: number) {
  const [found] = await rows<{
    id: number;
    package_id: number;
    bet_category_id: number;
    medium: 'sms' | 'web';
    expires_at: string;
    latest_expiry: string;
    name: string;
    duration_days: number;
    price_cents: string | number | null;
    on_sale: boolean;
    code: string;
  }>(
    db,
    sql`select s.id, s.package_id, s.bet_category_id, s.medium, s.expires_at,
               (select max(o.expires_at) from ${subscriptions} o
                 where o.subscriber_id = s.subscriber_id and o.bet_category_id = s.bet_category_id
                   and o.medium = s.medium and o.reversed_at is null and o.lapsed_at is null) as latest_expiry,
               p.name, p.duration_days, p.price_cents, p.price_cents > 0 as on_sale, bc.code
          from ${subscriptions} s
          join ${pricePackages} p on p.id = s.package_id
          join ${betCategories} bc on bc.id = p.bet_category_id
         where s.id = ${subscriptionId} and s.subscriber_id = ${subscriberId} and s.reversed_at is null`,
  );
  if (!found) return null;
  return {
    id: Number(found.id),
    packageId: Number(found.package_id),
    name: found.name,
    durationDays: Number(found.duration_days),
    priceCents: found.price_cents === null ? null : Number(found.price_cents),
    onSale: found.on_sale === true,
    code: found.code,
    latestExpiry: new Date(found.latest_expiry ?? found.expires_at),
  };
}

/** The subscription a payment bought (the one to offer automatic renewal of after a purchase). */
export async function subscriptionOfPayment(db: Queryable, subscriberId: number, paymentId: number): Promise<number | null> {
  const [found] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.paymentId, paymentId), eq(subscriptions.subscriberId, subscriberId)))
    .limit(1);
  return found?.id ?? null;
}

/** The live standing order of a subscriber for a package, if any. */
export async function liveOrderFor(db: Queryable, subscriberId: number, packageId: number): Promise<StandingOrderRecord | null> {
  const [found] = await db
    .select()
    .from(standingOrders)
    .where(and(eq(standingOrders.subscriberId, subscriberId), eq(standingOrders.packageId, packageId), inArray(standingOrders.status, [...LIVE])));
  return found ?? null;
}

/** Every live standing order paid from this phone or held by a subscriber with it (a self-exclusion stops them). */
export async function liveOrdersOfPhone(db: Queryable, phone: string): Promise<StandingOrderRecord[]> {
  return db
    .select()
    .from(standingOrders)
    .where(
      and(
        inArray(standingOrders.status, [...LIVE]),
        or(eq(standingOrders.phone, phone), inArray(standingOrders.subscriberId, db.select({ id: tipsSubscribers.id }).from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone)))),
      ),
    );
}

/** The newest standing order of a subscriber for a package, whatever its status (a declined one is told on the portal). */
export async function latestOrderFor(db: Queryable, subscriberId: number, packageId: number): Promise<StandingOrderRecord | null> {
  const [found] = await db
    .select()
    .from(standingOrders)
    .where(and(eq(standingOrders.subscriberId, subscriberId), eq(standingOrders.packageId, packageId)))
    .orderBy(desc(standingOrders.id))
    .limit(1);
  return found ?? null;
}

/** Inserts a standing order unless a live one exists for the same subscriber and package (then null). */
export async function insertOrder(db: Queryable, values: NewStandingOrder): Promise<StandingOrderRecord | null> {
  const [row] = await db.insert(standingOrders).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function orderById(db: Queryable, id: number): Promise<StandingOrderRecord | null> {
  const [found] = await db.select().from(standingOrders).where(eq(standingOrders.id, id));
  return found ?? null;
}

export async function orderByResponseRef(db: Queryable, responseRefId: string): Promise<StandingOrderRecord | null> {
  const [found] = await db.select().from(standingOrders).where(eq(standingOrders.responseRefId, responseRefId));
  return found ?? null;
}

/** A subscriber's standing orders with their package's name, newest first. */
export async function ordersOfSubscriber(db: Queryable, subscriberId: number) {
  return db
    .select({ order: standingOrders, packageName: pricePackages.name })
    .from(standingOrders)
    .innerJoin(pricePackages, eq(pricePackages.id, standingOrders.packageId))
    .where(eq(standingOrders.subscriberId, subscriberId))
    .orderBy(desc(standingOrders.id));
}

export async function packageName(db: Queryable, packageId: number): Promise<string> {
  const [found] = await db.select({ name: pricePackages.name }).from(pricePackages).where(eq(pricePackages.id, packageId));
  return found?.name ?? '';
}

/** Moves a standing order from one status to another; null when it was not in `from` (someone else moved it). */
export async function moveOrder(
  db: Queryable,
  id: number,
  from: readonly StandingOrderRecord['status'][],
  set: Partial<Pick<StandingOrderRecord, 'status' | 'responseRefId' | 'resultCode' | 'resultDesc' | 'decidedAt' | 'stoppedAt' | 'stoppedBy'>>,
): Promise<StandingOrderRecord | null> {
  const [row] = await db
    .update(standingOrders)
    .set(set)
    .where(and(eq(standingOrders.id, id), inArray(standingOrders.status, [...from])))
    .returning();
  return row ?? null;
}

/** Standing orders asked for on the USSD menu and not sent yet (the session must have ended). */
export async function requestedBefore(db: Queryable, before: Date): Promise<number[]> {
  const found = await db
    .select({ id: standingOrders.id })
    .from(standingOrders)
    .where(and(eq(standingOrders.status, 'requested'), lt(standingOrders.createdAt, before)))
    .orderBy(standingOrders.id)
    .limit(100);
  return found.map((r) => r.id);
}

/**
 * The active standing order a confirmation is a run of: the payer's, for this account reference
 * (as the rules read it: case and spaces ignored) and exactly its amount (the oldest). Locked for the run.
 */
function orderPaying(subscriberId: SQL, account: string, amountCents: number): SQL {
  return sql`select id, package_id from ${standingOrders}
              where subscriber_id = ${subscriberId} and status = 'active' and amount_cents = ${amountCents}
                and upper(regexp_replace(account_reference, '[\\s-]+', '', 'g')) = ${account}
              order by id limit 1 for update`;
}

/** That order of a subscriber, read on its own. */
export async function activeOrderPaying(db: Queryable, subscriberId: number, account: string, amountCents: number) {
  const [found] = await rows<{ id: number; package_id: number }>(db, orderPaying(sql`${subscriberId}`, account, amountCents));
  return standingOrderOf(found);
}

/** The same order as a JSON column of another read (null when there is none). */
export function activeOrderPayingColumn(subscriberId: SQL, account: string, amountCents: number): SQL {
  return sql`(select json_build_object('id', o.id, 'package_id', o.package_id) from (${orderPaying(subscriberId, account, amountCents)}) o)`;
}

/** The order as the rules use it, from its row or its JSON. */
export function standingOrderOf(found: { id: number | string; package_id: number | string } | null | undefined) {
  return found ? { id: Number(found.id), packageId: Number(found.package_id) } : null;
}

export async function setRun(db: Queryable, id: number, r: { nextDate: string; paymentId: number }): Promise<void> {
  await db.update(standingOrders).set({ nextDate: r.nextDate, lastPaymentId: r.paymentId }).where(eq(standingOrders.id, id));
}

/** Moves a live standing order's due day (a pause of its subscription, decision 090). */
export async function setDueDay(db: Queryable, id: number, nextDate: string): Promise<void> {
  await db.update(standingOrders).set({ nextDate }).where(and(eq(standingOrders.id, id), inArray(standingOrders.status, [...LIVE])));
}

/** Active standing orders whose due day passed with no payment (before `today`), a batch at a time. */
export async function overdue(db: Queryable, today: string): Promise<StandingOrderRecord[]> {
  return db
    .select()
    .from(standingOrders)
    .where(and(eq(standingOrders.status, 'active'), lt(standingOrders.nextDate, today)))
    .orderBy(standingOrders.nextDate)
    .limit(100);
}

/** Marks a due day missed and moves to the next one, once: only while the order still waits for that day. */
export async function markMissed(db: Queryable, id: number, missed: string, nextDate: string): Promise<boolean> {
  const updated = await db
    .update(standingOrders)
    .set({ missedDate: missed, nextDate })
    .where(and(eq(standingOrders.id, id), eq(standingOrders.status, 'active'), eq(standingOrders.nextDate, missed)))
    .returning({ id: standingOrders.id });
  return updated.length > 0;
}
