import { sql, type SQL } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE, nairobiRange, type ReportGroup } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { betCategories, bet4mePlans, bonusPayments, subscriptions, users } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import type { HistoryRow } from './retention-formulas.ts';

/** The first day (YYYY-MM-DD) of the Nairobi period an instant column falls in. */
export function periodSql(at: SQL, group: ReportGroup): SQL {
  const day = sql`((${at}) at time zone ${BUSINESS_TIME_ZONE})::date`;
  if (group === 'day') return sql`to_char(${day}, 'YYYY-MM-DD')`;
  if (group === 'week') return sql`to_char(${day} - (extract(isodow from ${day})::int - 1), 'YYYY-MM-DD')`;
  return sql`to_char(date_trunc('month', ${day})::date, 'YYYY-MM-DD')`;
}

/** [start, end) instants of an inclusive range of Nairobi days, as the ISO text PostgreSQL compares. */
function instants(range: { from: string; to: string }): { start: string; end: string } {
  const { start, end } = nairobiRange(range);
  return { start: start!.toISOString(), end: end!.toISOString() };
}

export interface SubscriberCountRow {
  period: string;
  bet_category_id: number | null;
  n: number;
}

/** Tips subscriptions that count: a subscriber's, not reversed. */
const counted = sql`s.subscriber_id is not null and s.reversed_at is null`;

/**
 * Subscribers who bought a bet category in each period, split into those buying it for the first
 * time (`new`) and those who had bought it before (`renewed`), each subscriber counted once per
 * period and category.
 *
 * The range is a condition on `created_at` alone, so PostgreSQL reads only the range's rows through
 * `subscriptions_created_idx (created_at)`; the "bought before?" look-up per row goes through
 * `subscriptions_subscriber_idx (subscriber_id, expires_at)`.
 */
export function subscriptionsMadeQuery(range: { from: string; to: string }, group: ReportGroup): SQL {
  const { start, end } = instants(range);
  return sql`
    with made as (
      select ${periodSql(sql`s.created_at`, group)} as period, s.bet_category_id, s.subscriber_id,
             exists (
               select 1 from ${subscriptions} e
                where e.subscriber_id = s.subscriber_id
                  and e.bet_category_id is not distinct from s.bet_category_id
                  and e.reversed_at is null
                  and (e.created_at < s.created_at or (e.created_at = s.created_at and e.id < s.id))
             ) as again
        from ${subscriptions} s
       where s.created_at >= ${start} and s.created_at < ${end} and ${counted}
    )
    select period, bet_category_id,
           count(distinct subscriber_id) filter (where not again) as new,
           count(distinct subscriber_id) filter (where again) as renewed
      from made
     group by period, bet_category_id`;
}

/**
 * Subscribers whose cover of a bet category ended in each period (and before now) with nothing
 * bought to carry it on: no other subscription of theirs to the category that had started by then
 * and runs past it. A renewal bought before the end stacks after it (it starts at the end), so it
 * is not a lapse; one bought after a gap is.
 *
 * The range is a condition on `expires_at` alone: `subscriptions_expires_idx (expires_at)` reads
 * only the range's rows; the follow-up look-up goes through `subscriptions_subscriber_idx`.
 */
export function subscriptionsLapsedQuery(range: { from: string; to: string }, group: ReportGroup): SQL {
  const { start, end } = instants(range);
  return sql`
    select ${periodSql(sql`s.expires_at`, group)} as period, s.bet_category_id, count(distinct s.subscriber_id) as n
      from ${subscriptions} s
     where s.expires_at >= ${start} and s.expires_at < ${end} and s.expires_at <= now() and ${counted}
       and not exists (
             select 1 from ${subscriptions} f
              where f.subscriber_id = s.subscriber_id
                and f.bet_category_id is not distinct from s.bet_category_id
                and f.reversed_at is null
                and f.id <> s.id
                and f.starts_at <= s.expires_at
                and f.expires_at > s.expires_at)
     group by 1, 2`;
}

export async function subscriptionsMade(db: Queryable, range: { from: string; to: string }, group: ReportGroup) {
  const found = await rows<{ period: string; bet_category_id: number | null; new: string | number; renewed: string | number }>(
    db,
    subscriptionsMadeQuery(range, group),
  );
  return found.map((r) => ({
    period: r.period,
    bet_category_id: r.bet_category_id === null ? null : Number(r.bet_category_id),
    new: Number(r.new),
    renewed: Number(r.renewed),
  }));
}

export async function subscriptionsLapsed(db: Queryable, range: { from: string; to: string }, group: ReportGroup): Promise<SubscriberCountRow[]> {
  const found = await rows<{ period: string; bet_category_id: number | null; n: string | number }>(db, subscriptionsLapsedQuery(range, group));
  return found.map((r) => ({
    period: r.period,
    bet_category_id: r.bet_category_id === null ? null : Number(r.bet_category_id),
    n: Number(r.n),
  }));
}

/** Bet categories and plans by id, for naming report lines (both tables are short). */
export async function catalogueNames(db: Queryable) {
  const [categories, plans] = await Promise.all([
    rows<{ id: number; name: string }>(db, sql`select id, name from ${betCategories}`),
    rows<{ id: number; name: string }>(db, sql`select id, name from ${bet4mePlans}`),
  ]);
  return {
    categories: new Map(categories.map((c) => [Number(c.id), c.name])),
    plans: new Map(plans.map((p) => [Number(p.id), p.name])),
  };
}

/**
 * Money staff recorded by hand per Nairobi day: subscriptions marked `manual` (not reversed) and
 * bonus payments marked `manual`. Each side is read through its partial index on the manual rows
 * (`subscriptions_manual_created_idx`, `bonus_payments_manual_paid_idx`): the cost is the manual
 * rows of the range, however many M-Pesa ones there are.
 */
export function manualIncomeQuery(range: { from: string; to: string }): SQL {
  const { start, end } = instants(range);
  return sql`select day, sum(cents) as cents from (
          select ${periodSql(sql`created_at`, 'day')} as day, amount_cents as cents
            from ${subscriptions}
           where source = 'manual' and created_at >= ${start} and created_at < ${end} and reversed_at is null
          union all
          select ${periodSql(sql`paid_at`, 'day')} as day, amount_cents as cents
            from ${bonusPayments}
           where source = 'manual' and paid_at >= ${start} and paid_at < ${end}
        ) manual group by day`;
}

export async function manualIncomeByDay(db: Queryable, range: { from: string; to: string }): Promise<{ day: string; cents: number }[]> {
  const found = await rows<{ day: string; cents: string | number }>(db, manualIncomeQuery(range));
  return found.map((r) => ({ day: r.day, cents: Number(r.cents) }));
}

/** Everyone who can have opened a bet, trashed users included (their bets stay theirs). */
export function staffNames(db: Queryable): Promise<{ id: number; name: string; deleted: boolean }[]> {
  return rows<{ id: number; name: string; deleted: boolean }>(
    db,
    sql`select id, name, deleted_at is not null as deleted from ${users} order by name, id`,
  );
}

/**
 * The subscriptions of every tips subscriber with a cover ending on or after `since` and bought
 * before `end` (the retention report's history): a range on `expires_at`
 * (subscriptions_expires_idx), then each subscriber's through subscriptions_subscriber_idx.
 */
export function subscriberHistoryRows(db: Queryable, since: Date, end: Date) {
  return rows<{
  id: string | number;
  subscriber_id: number;
  bet_category_id: number | null;
  medium: 'sms' | 'web' | null;
  source: HistoryRow['source'];
  amount_cents: string | number;
  created_at: string | Date;
  starts_at: string | Date;
  expires_at: string | Date;
  reversed_at: string | Date | null;
  }>(
    db,
    sql`select s.id, s.subscriber_id, s.bet_category_id, s.medium, s.source, s.amount_cents,
               s.created_at, s.starts_at, s.expires_at, s.reversed_at
          from ${subscriptions} s
         where s.subscriber_id in (
                 select subscriber_id from ${subscriptions}
                  where subscriber_id is not null and expires_at >= ${since.toISOString()} and created_at < ${end.toISOString()})
           and s.created_at < ${end.toISOString()}`,
  );
}

