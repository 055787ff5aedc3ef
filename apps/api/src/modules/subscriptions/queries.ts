import { eq, sql, type SQL } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE, centsToKes, nairobiDayOf, RECENT_SUBSCRIPTION_DAYS, type Bet4meSubscription, type SortDirection, type SortOf } from '@betdesk/contract';
import { iso, rows } from '../../db/rows.ts';
import { exactCount, inDays, orderSql, pageRows, type Page } from '../../db/list.ts';
import { summed, type DayRange } from '../../db/summaries.ts';
import { bet4mePlans, clients, pricePackages, standingOrders, subscriptions, tipsSubscribers, type TipsMedium } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { asPlaceholders, fixedRows, type FixedStatement } from '../../db/fixed-statements.ts';

/** What a subscription is of: a client's Bet4Me plan, or a tips subscriber's category and medium. */
export type WhatIsBought =
  | { clientId: number; planId: number }
  | { subscriberId: number; packageId: number; betCategoryId: number; medium: TipsMedium };

export type NewSubscription = typeof subscriptions.$inferInsert;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

// ---- Starting, reversing and shortening a subscription --------------------------------------

/**
 * A new subscription stacked after the holder's current one of the same thing, as one insert (a part
 * of a bigger statement, see `stackedSubscriptionRow`): it starts at the later of `now` and the
 * latest expiry of the same thing, read with a lock on that row so two activations at once stack
 * instead of overlapping, and runs `durationDays` whole days of 24 hours from there. Its text is built
 * once per shape (db/fixed-statements.ts).
 */
export function stackedSubscriptionInsert(
  tx: Queryable,
  what: WhatIsBought,
  values: Omit<NewSubscription, 'startsAt' | 'expiresAt'>,
  period: { now: Date; durationDays: number },
): FixedStatement {
  const row = asPlaceholders(values, 'subscription_');
  const ofClient = 'clientId' in what;
  const same = ofClient
    ? { same_client: what.clientId }
    : { same_subscriber: what.subscriberId, same_category: what.betCategoryId, same_medium: what.medium };
  const now = sql.placeholder('period_now');
  const days = sql.placeholder('period_days');
  return {
    shape: `stacked subscription (${row.shape}) after the same ${ofClient ? 'plan' : 'category and medium'}`,
    values: { ...row.values, ...same, period_now: period.now.toISOString(), period_days: period.durationDays },
    build: () => {
      const sameThing = ofClient
        ? sql`${subscriptions.clientId} = ${sql.placeholder('same_client')}`
        : sql`${subscriptions.subscriberId} = ${sql.placeholder('same_subscriber')}
              and ${subscriptions.betCategoryId} = ${sql.placeholder('same_category')} and ${subscriptions.medium} = ${sql.placeholder('same_medium')}`;
      const startsAt = sql`greatest(${now}::timestamptz, (
        select ${subscriptions.expiresAt} from ${subscriptions} where ${sameThing} and ${subscriptions.lapsedAt} is null
         order by ${subscriptions.expiresAt} desc limit 1 for update))`;
      return tx
        .insert(subscriptions)
        .values({ ...row.row, startsAt, expiresAt: sql`${startsAt} + ${days}::integer * interval '24 hours'` })
        .returning({ id: subscriptions.id, startsAt: subscriptions.startsAt, expiresAt: subscriptions.expiresAt });
    },
  };
}

/** A row `stackedSubscriptionInsert` returned, read from the database's column names. */
export function stackedSubscriptionRow(row: Record<string, unknown>): { id: number; startsAt: Date; expiresAt: Date } {
  return { id: Number(row.id), startsAt: new Date(row.starts_at as string), expiresAt: new Date(row.expires_at as string) };
}

/** Runs a fixed statement and answers its rows with the database's column names. */
export function rowsOf(tx: Queryable, statement: FixedStatement): Promise<Record<string, unknown>[]> {
  return fixedRows<Record<string, unknown>>(tx, statement);
}

/** The subscriptions a payment bought, locked. */
export function lockSubscriptionsBoughtWith(tx: Queryable, paymentId: number): Promise<SubscriptionRow[]> {
  return tx.select().from(subscriptions).where(eq(subscriptions.paymentId, paymentId)).for('update');
}

/** One subscription, locked; undefined when there is none. */
export async function lockSubscription(tx: Queryable, id: number): Promise<SubscriptionRow | undefined> {
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
  return sub;
}

/** Marks a subscription reversed at `now`, ending at `endsAt`, and lets go of its payment. */
export async function markSubscriptionReversed(tx: Queryable, id: number, endsAt: Date, now: Date): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ paymentId: null, expiresAt: endsAt, lapsedAt: now, reversedAt: now })
    .where(eq(subscriptions.id, id));
}

/** Sets a subscription's price and expiry (a partial refund shortened it). */
export async function setSubscriptionPriceAndExpiry(tx: Queryable, id: number, amountCents: number, expiresAt: Date): Promise<void> {
  await tx.update(subscriptions).set({ amountCents, expiresAt }).where(eq(subscriptions.id, id));
}

/**
 * Moves a tips subscription's end by `days`, and with it each later subscription stacked after it
 * (same subscriber, category and medium, starting at or after its old end): renewals stay end to
 * end. Answers the subscription's new end.
 */
export async function moveSubscriptionEnd(tx: Queryable, sub: SubscriptionRow, days: number): Promise<Date> {
  const [moved] = await rows<{ expires_at: Date | string }>(
    tx,
    sql`update ${subscriptions} set expires_at = expires_at + ${days}::integer * interval '24 hours'
         where id = ${sub.id} returning expires_at`,
  );
  await tx.execute(sql`
    update ${subscriptions}
       set starts_at = starts_at + ${days}::integer * interval '24 hours',
           expires_at = expires_at + ${days}::integer * interval '24 hours'
     where subscriber_id = ${sub.subscriberId} and bet_category_id is not distinct from ${sub.betCategoryId}
       and medium is not distinct from ${sub.medium} and id <> ${sub.id}
       and lapsed_at is null and reversed_at is null and starts_at >= ${sub.expiresAt.toISOString()}::timestamptz`);
  return new Date(moved!.expires_at);
}

// ---- The expiry job -------------------------------------------------------------------------

/** Marks lapsed every subscription whose expiry has passed; returns how many. */
/** Where a run of the expiry job has got to: the last subscription it marked, by (expiry, id). */
export interface LapseCursor {
  /** The expiry as PostgreSQL's text, so no microsecond is lost on the way through Node. */
  expiresAt: string;
  id: number;
}

/**
 * Marks up to `limit` expired subscriptions lapsed, by expiry then id, after `after` (where the
 * run's previous batch ended: each batch starts where the last one stopped instead of walking again
 * over the index entries it just marked), in the caller's statement (its own transaction when `db`
 * is the pool). Rows another run holds are skipped, not waited for (the next run finds them). Only
 * the count and the last key come back, never the ids (decision 064: an imported history has
 * millions).
 */
export async function markExpiredSubscriptionsLapsed(
  db: Queryable,
  limit: number,
  after: LapseCursor | null = null,
): Promise<{ marked: number; last: LapseCursor | null }> {
  const from = after ? sql`and (expires_at, id) > (${after.expiresAt}::timestamptz, ${after.id})` : sql``;
  const [batch] = await rows<{ marked: number; last_expires_at: string | null; last_id: string | number | null }>(
    db,
    sql`
    with due as (
      select id, expires_at from subscriptions
      where lapsed_at is null and expires_at <= now() ${from}
      order by expires_at, id
      limit ${limit}
      for update skip locked
    ), marked as (
      update subscriptions s set lapsed_at = now() from due where s.id = due.id returning 1
    ), last as (
      select expires_at::text as expires_at, id from due order by expires_at desc, id desc limit 1
    )
    select (select count(*)::int from marked) as marked, last.expires_at as last_expires_at, last.id as last_id
    from (select 1) one left join last on true`,
  );
  const last = batch?.last_expires_at ? { expiresAt: batch.last_expires_at, id: Number(batch.last_id) } : null;
  return { marked: Number(batch?.marked ?? 0), last };
}

export interface ReminderDue {
  id: number;
  client_id: number | null;
  subscriber_id: number | null;
  name: string;
  phone: string;
  package: string;
  expires_at: string;
}

/**
 * Up to 500 subscriptions that expire within a day, are not yet reminded, have a phone to remind, and
 * are not followed by a renewal of the same thing nor renewed by an active standing order (M-Pesa
 * Ratiba, decision 042: the run pays by itself, and "renew by M-Pesa" would invite a second
 * payment); locked (skipping those another run holds). A standing order stopped before the
 * expiry lets the reminder go on a later run: the subscription is not marked reminded.
 */
export function subscriptionsDueReminder(tx: Queryable): Promise<ReminderDue[]> {
  return rows<ReminderDue>(
    tx,
    sql`select s.id, s.client_id, s.subscriber_id, coalesce(c.name, t.name) as name, coalesce(c.phone, t.phone) as phone,
               coalesce(pl.name || ' plan', pp.name, 'tips') as package, s.expires_at
          from ${subscriptions} s
          left join ${clients} c on c.id = s.client_id and c.deleted_at is null
          left join ${tipsSubscribers} t on t.id = s.subscriber_id
          left join ${bet4mePlans} pl on pl.id = s.plan_id
          left join ${pricePackages} pp on pp.id = s.package_id
         where s.lapsed_at is null and s.reminded_at is null
           and s.expires_at > now() and s.expires_at <= now() + interval '1 day'
           and coalesce(c.phone, t.phone) is not null
           and not exists (
             select 1 from ${subscriptions} later
              where later.id <> s.id and later.expires_at > s.expires_at and later.lapsed_at is null
                and (later.client_id = s.client_id
                     or (later.subscriber_id = s.subscriber_id and later.bet_category_id = s.bet_category_id
                         and later.medium = s.medium)))
           and not exists (
             select 1 from ${standingOrders} o
               join ${pricePackages} op on op.id = o.package_id
              where o.subscriber_id = s.subscriber_id and o.status = 'active'
                and op.bet_category_id = s.bet_category_id and op.medium = s.medium
                and o.end_date >= (s.expires_at at time zone ${BUSINESS_TIME_ZONE})::date)
         order by s.expires_at
         limit 500
           for update of s skip locked`,
  );
}

/** Notes that a subscription's reminder went out. */
export async function markSubscriptionReminded(tx: Queryable, id: number): Promise<void> {
  await tx.update(subscriptions).set({ remindedAt: sql`now()` }).where(sql`${subscriptions.id} = ${id}`);
}

// ---- Bet4Me subscription lists --------------------------------------------------------------

function toSubscription(r: Record<string, unknown>): Bet4meSubscription {
  const active = Boolean(r.active);
  const status = active ? 1 : 0;
  return {
    id: Number(r.id),
    amount: centsToKes(r.amount_cents),
    duration: Number(r.duration_days),
    done_on: iso(r.created_at),
    expiry_date: iso(r.expires_at),
    status,
    status_id: status,
    status_name: r.reversed ? 'Reversed' : active ? 'Active' : 'Expired',
    client_id: Number(r.client_id),
    name: String(r.name),
    phone: String(r.phone),
  };
}

const subscriptionColumns = sql`
  s.id, s.amount_cents, s.duration_days, s.created_at, s.expires_at, (s.expires_at > now() and s.reversed_at is null) as active,
  (s.reversed_at is not null) as reversed, s.client_id, c.name, c.phone`;

/**
 * One page of Bet4Me subscriptions (client subscriptions only); `where` and `order` read s, so the
 * page is picked off subscriptions_client_*_idx before the clients are joined.
 */
export async function findClientSubscriptions(db: Queryable, where: SQL, page: Page | null, order: SQL = newestSubscriptionsFirst): Promise<Bet4meSubscription[]> {
  const found = await rows<Record<string, unknown>>(db, sql`
    select ${subscriptionColumns}
      from (${pageRows(subscriptions, 's', sql`s.client_id is not null and ${where}`, order, page)}) s
      join ${clients} c on c.id = s.client_id
     order by ${order}`);
  return found.map(toSubscription);
}

export const newestSubscriptionsFirst = sql`s.created_at desc, s.id desc`;

/** Every Bet4Me subscription of `where` in `order`, for the CSV export's cursor. */
export function clientSubscriptionsExportQuery(where: SQL, order: SQL): SQL {
  return sql`select ${subscriptionColumns} from ${subscriptions} s join ${clients} c on c.id = s.client_id
     where s.client_id is not null and ${where} order by ${order}`;
}

export { toSubscription };

const recentSql = sql`s.created_at >= now() - make_interval(days => ${RECENT_SUBSCRIPTION_DAYS})`;
const subscriptionSorts: Record<SortOf<'allSubscriptions'>, SQL> = { done_on: sql`s.created_at`, amount: sql`s.amount_cents` };

/**
 * The Bet4Me subscriptions list's rows: recent (last days) or all. Chosen days replace the recent
 * window, so the rows cover the same days as the income beside them.
 */
export function subscriptionListWhere(which: 'recent' | 'all', range: DayRange): SQL {
  if (which === 'recent' && !range.from && !range.to) return recentSql;
  return inDays(sql`s.created_at`, range);
}

/** The Bet4Me subscriptions list's order, as the request sorts it. */
export function subscriptionListOrder(q: { sort?: SortOf<'allSubscriptions'> | undefined; dir?: SortDirection | undefined }): SQL {
  return orderSql('allSubscriptions', subscriptionSorts, sql`s.id`, q);
}

/** One client's subscriptions (the caller found the client in the actor's scope). */
export function subscriptionsOfClientWhere(clientId: number): SQL {
  return sql`s.client_id = ${clientId}`;
}

export function countClientSubscriptions(db: Queryable, where: SQL): Promise<number> {
  return exactCount(db, sql`from ${subscriptions} s where s.client_id is not null and ${where}`);
}

/**
 * The value of the Bet4Me subscriptions sold (not the M-Pesa money received: that is the
 * dashboard's income) over the days, and on today's Nairobi business day, in cents, with how many
 * subscriptions the days hold (reversed ones included: the list shows them). A subscription
 * reversed by unclaiming its payment was never sold. From the day summaries.
 */
export async function clientSubscriptionIncome(db: Queryable, range: DayRange = {}) {
  const today = nairobiDayOf(new Date());
  const [sold, reversed, soldToday] = await Promise.all([
    summed(db, 'subscription:client:', range),
    summed(db, 'subscription_reversed:client', range),
    summed(db, 'subscription:client:', { from: today, to: today }),
  ]);
  return { totalCents: sold.amount_cents, todayCents: soldToday.amount_cents, subscriptions: sold.n + reversed.n };
}

