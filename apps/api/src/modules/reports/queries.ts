import { sql, type SQL } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE, nairobiRange, SALE_LEVERS, type ReportGroup, type SaleLever } from '@betdesk/contract';
import { inDays } from '../../db/list.ts';
import { rows } from '../../db/rows.ts';
import { agentCommissions, betCategories, bet4mePlans, bonusPayments, booksPeriods, mpesaPayments, promoCodes, promoCodeUses, refunds, stkRequests, subscriptionPauses, subscriptions, taxInvoices, trialUses, users, type StkOrigin } from '../../db/schema/index.ts';
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
// A free trial (decision 089) is not a sale: no report of purchases or lapses counts it.
const counted = sql`s.subscriber_id is not null and s.reversed_at is null and s.source <> 'trial'`;

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
                  and e.reversed_at is null and e.source <> 'trial'
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
                and f.reversed_at is null and f.source <> 'trial'
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

// ---- Retention summaries (decision 043): written by retention-summary-store.ts, read by retention.ts.

type Stamp = string | Date;
export interface SubscriptionHistoryRow {
  id: string | number;
  subscriber_id: number;
  bet_category_id: number | null;
  medium: 'sms' | 'web' | null;
  source: HistoryRow['source'];
  /** A subscription's STK request's origin (null for other sources, or a push of before origins were kept). */
  origin?: StkOrigin | null;
  /** A summarised cover's stored channel: the subscriber's. */
  channel?: HistoryRow['channel'];
  amount_cents: string | number;
  created_at: Stamp;
  starts_at: Stamp;
  expires_at: Stamp;
  reversed_at: Stamp | null;
}

/** Marks taken for summarising, oldest subscriber ids first; a mark being set by a purchase in flight is waited for. */
export async function takeRetentionMarks(db: Queryable, limit: number): Promise<number[]> {
  const found = await rows<{ subscriber_id: number }>(
    db,
    sql`delete from retention_dirty where subscriber_id in (
          select subscriber_id from retention_dirty order by subscriber_id limit ${limit} for update)
        returning subscriber_id`,
  );
  return found.map((r) => Number(r.subscriber_id));
}

export async function retentionMarksLeft(db: Queryable): Promise<number> {
  const [row] = await rows<{ n: string | number }>(db, sql`select count(*) as n from retention_dirty`);
  return Number(row?.n ?? 0);
}

const idList = (ids: readonly number[]) => sql`(select unnest(${`{${ids.join(',')}}`}::int[]))`;

/** Every tips subscription of these subscribers, refunded ones included; free trials are no purchase (decision 089). */
export function subscriptionsOfSubscribers(db: Queryable, ids: readonly number[]) {
  return rows<SubscriptionHistoryRow>(
    db,
    sql`select s.id, s.subscriber_id, s.bet_category_id, s.medium, s.source, s.amount_cents, s.created_at, s.starts_at, s.expires_at, s.reversed_at,
               (select r.origin from ${stkRequests} r where r.payment_id = s.payment_id and s.source = 'stk' order by r.id limit 1) as origin
          from ${subscriptions} s where s.subscriber_id in ${idList(ids)} and s.source <> 'trial'`,
  );
}

/** The covers of these subscribers as last summarised (what their old rows added). */
export function summarisedCoversOf(db: Queryable, ids: readonly number[]) {
  return rows<SubscriptionHistoryRow>(
    db,
    sql`select subscription_id as id, subscriber_id, category_id as bet_category_id, medium, source, channel, amount_cents,
               created_at, starts_at, expires_at, null as reversed_at
          from retention_covers where subscriber_id in ${idList(ids)}`,
  );
}

export interface RetentionWrite {
  covers: unknown[];
  intervals: unknown[];
  days: unknown[];
  ends: unknown[];
  payers: unknown[];
  payersSince: unknown[];
  cohorts: unknown[];
}

/** Replace these subscribers' covers and runs, and add the pieces' deltas to the summaries. */
export async function writeRetentionPieces(db: Queryable, ids: readonly number[], w: RetentionWrite): Promise<void> {
  const json = (v: unknown[]) => JSON.stringify(v);
  if (ids.length > 0) {
    await db.execute(sql`delete from retention_covers where subscriber_id in ${idList(ids)}`);
    await db.execute(sql`delete from retention_intervals where subscriber_id in ${idList(ids)}`);
  }
  if (w.covers.length > 0) {
    await db.execute(sql`insert into retention_covers (subscription_id, subscriber_id, category_id, medium, source, amount_cents,
                                created_at, starts_at, expires_at, channel, renewal_lag_ms)
      select * from json_to_recordset(${json(w.covers)}::json) as x(subscription_id bigint, subscriber_id int, category_id int, medium text,
             source text, amount_cents bigint, created_at timestamptz, starts_at timestamptz, expires_at timestamptz, channel text, renewal_lag_ms bigint)`);
  }
  if (w.intervals.length > 0) {
    await db.execute(sql`insert into retention_intervals (subscriber_id, dim, key, starts_at, ends_at, next_starts_at)
      select * from json_to_recordset(${json(w.intervals)}::json) as x(subscriber_id int, dim text, key text, starts_at timestamptz,
             ends_at timestamptz, next_starts_at timestamptz)`);
  }
  if (w.days.length > 0) {
    await db.execute(sql`insert into retention_days as t (dim, key, day, cover_in, cover_out, churn_day, churn_week, churn_month,
                                income_cents, retained_day_cents, retained_week_cents, retained_month_cents, payers_day, payers_week, payers_month,
                                churn_so_far_week, churn_so_far_month)
      select * from json_to_recordset(${json(w.days)}::json) as x(dim text, key text, day date, cover_in int, cover_out int, churn_day int,
             churn_week int, churn_month int, income_cents bigint, retained_day_cents bigint, retained_week_cents bigint, retained_month_cents bigint,
             payers_day int, payers_week int, payers_month int, churn_so_far_week int, churn_so_far_month int)
      on conflict (dim, key, day) do update set cover_in = t.cover_in + excluded.cover_in, cover_out = t.cover_out + excluded.cover_out,
        churn_day = t.churn_day + excluded.churn_day, churn_week = t.churn_week + excluded.churn_week,
        churn_month = t.churn_month + excluded.churn_month, income_cents = t.income_cents + excluded.income_cents,
        retained_day_cents = t.retained_day_cents + excluded.retained_day_cents,
        retained_week_cents = t.retained_week_cents + excluded.retained_week_cents,
        retained_month_cents = t.retained_month_cents + excluded.retained_month_cents,
        payers_day = t.payers_day + excluded.payers_day, payers_week = t.payers_week + excluded.payers_week,
        payers_month = t.payers_month + excluded.payers_month, churn_so_far_week = t.churn_so_far_week + excluded.churn_so_far_week,
        churn_so_far_month = t.churn_so_far_month + excluded.churn_so_far_month`);
  }
  if (w.ends.length > 0) {
    await db.execute(sql`insert into retention_ends as t (dim, key, day, lag_days, n)
      select * from json_to_recordset(${json(w.ends)}::json) as x(dim text, key text, day date, lag_days int, n int)
      on conflict (dim, key, day, lag_days) do update set n = t.n + excluded.n`);
  }
  if (w.payers.length > 0) {
    await db.execute(sql`insert into retention_payers as t (dim, key, day, prev_day, n)
      select * from json_to_recordset(${json(w.payers)}::json) as x(dim text, key text, day date, prev_day date, n int)
      on conflict (dim, key, day, prev_day) do update set n = t.n + excluded.n`);
  }
  if (w.payersSince.length > 0) {
    await db.execute(sql`insert into retention_payers_since as t (dim, key, since, day, n)
      select * from json_to_recordset(${json(w.payersSince)}::json) as x(dim text, key text, since date, day date, n int)
      on conflict (dim, since, day, key) do update set n = t.n + excluded.n`);
  }
  if (w.cohorts.length > 0) {
    await db.execute(sql`insert into retention_cohorts as t (dim, key, cohort, month, members, active, income_cents)
      select * from json_to_recordset(${json(w.cohorts)}::json) as x(dim text, key text, cohort date, month date, members int, active int, income_cents bigint)
      on conflict (dim, key, cohort, month) do update set members = t.members + excluded.members, active = t.active + excluded.active,
        income_cents = t.income_cents + excluded.income_cents`);
  }
}

/** One summariser at a time: two would read the same old covers and add a change twice. */
export async function lockRetentionSummaries(db: Queryable): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('betdesk-retention-summaries'))`);
}

export interface RetentionDayRow {
  key: string;
  day: string;
  cover_in: number;
  cover_out: number;
  churn_day: number;
  churn_week: number;
  churn_month: number;
  income_cents: number;
  retained_day_cents: number;
  retained_week_cents: number;
  retained_month_cents: number;
  payers_day: number;
  payers_week: number;
  payers_month: number;
  churn_so_far_week: number;
  churn_so_far_month: number;
}

/** The day pieces of a split in [from, to], with the active count at `from` folded into its first row per key. */
export async function retentionDayRows(db: Queryable, dim: string, from: string, to: string): Promise<{ days: RetentionDayRow[]; activeBefore: Map<string, number> }> {
  const days = await rows<RetentionDayRow>(
    db,
    sql`select key, to_char(day, 'YYYY-MM-DD') as day, cover_in, cover_out, churn_day, churn_week, churn_month, income_cents::float8 as income_cents,
               retained_day_cents::float8 as retained_day_cents, retained_week_cents::float8 as retained_week_cents,
               retained_month_cents::float8 as retained_month_cents, payers_day, payers_week, payers_month,
               churn_so_far_week, churn_so_far_month
          from retention_days where dim = ${dim} and day >= ${from}::date and day <= ${to}::date order by key, day`,
  );
  const before = await rows<{ key: string; n: string | number }>(
    db,
    sql`select key, sum(cover_in - cover_out) as n from retention_days where dim = ${dim} and day < ${from}::date group by key`,
  );
  return { days, activeBefore: new Map(before.map((r) => [r.key, Number(r.n)])) };
}

/** Covers that ended per key and day in [from, to]: all of them, and those renewed within `grace` days. */
export function retentionEndRows(db: Queryable, dim: string, from: string, to: string, grace: number) {
  return rows<{ key: string; day: string; ended: number; renewed: number }>(
    db,
    sql`select key, to_char(day, 'YYYY-MM-DD') as day, sum(n)::int as ended, (sum(n) filter (where lag_days <= ${grace}))::int as renewed
          from retention_ends where dim = ${dim} and day >= ${from}::date and day <= ${to}::date group by key, day`,
  );
}

const splitColumn = (dim: string) =>
  dim === 'category' ? sql`coalesce(category_id::text, 'none')` : dim === 'medium' ? sql`coalesce(medium, 'none')` : dim === 'channel' ? sql`channel` : sql`'all'`;

/** Covers ended in [start, end) whose end plus the grace has passed by `now`, per key: ended and renewed within the grace. */
export function recentEnds(db: Queryable, dim: string, start: Date, end: Date, graceMs: number, now: Date) {
  return rows<{ key: string; ended: number; renewed: number }>(
    db,
    sql`select ${splitColumn(dim)} as key, count(*)::int as ended, (count(*) filter (where renewal_lag_ms <= ${graceMs}))::int as renewed
          from retention_covers
         where expires_at >= ${start.toISOString()} and expires_at < ${end.toISOString()}
           and expires_at <= ${new Date(now.getTime() - graceMs).toISOString()}
         group by 1`,
  );
}

/**
 * Distinct payers per key of each [from, to] range (`month`: the start of from's month): purchases
 * in it whose payer's purchase before was before `from` — first purchases, those whose purchase
 * before was before `month` (one row per day), and those with it in [month, from) (only when
 * `from` is not a month start).
 */
export async function distinctPayers(db: Queryable, dim: string, ranges: readonly { from: string; to: string; month: string }[]) {
  if (ranges.length === 0) return [];
  const list = sql.join(
    ranges.map((r, i) => sql`(${i}, ${r.from}::date, ${r.to}::date, ${r.month}::date)`),
    sql`, `,
  );
  return rows<{ i: number; key: string; n: number }>(
    db,
    sql`select i, key, sum(n)::int as n from (
          select r.i, p.key, p.n
            from (values ${list}) r(i, f, t, m)
            join retention_payers_since p on p.dim = ${dim} and p.since in ('1900-01-01'::date, r.m) and p.day >= r.f and p.day <= r.t
          union all
          select r.i, p.key, p.n
            from (values ${list}) r(i, f, t, m)
            join retention_payers p on p.dim = ${dim} and p.prev_day >= r.m and p.prev_day < r.f and p.day >= r.f and p.day <= r.t
           where r.m < r.f) x
         group by i, key`,
  );
}

/** The month of the first purchase per key of a split (its earliest cohort). */
export function firstPurchaseMonths(db: Queryable, dim: string) {
  return rows<{ key: string; month: string }>(
    db,
    sql`select key, to_char(min(cohort), 'YYYY-MM-DD') as month from retention_cohorts where dim = ${dim} and month = cohort and members > 0 group by key`,
  );
}

/**
 * Churned per key over [start, until): runs covering `start` that end by `until`, of subscribers
 * not covered again at `until` (a later run starting by then and running past it).
 */
export function liveChurned(db: Queryable, dim: string, start: Date, until: Date) {
  const s = start.toISOString();
  const u = until.toISOString();
  return rows<{ key: string; n: number }>(
    db,
    sql`select i.key, count(*)::int as n from retention_intervals i
         where i.dim = ${dim} and i.ends_at > ${s} and i.ends_at <= ${u} and i.starts_at <= ${s}
           and (i.next_starts_at is null or i.next_starts_at > ${u} or not exists (
                 select 1 from retention_intervals j
                  where j.subscriber_id = i.subscriber_id and j.dim = i.dim and j.key = i.key
                    and j.starts_at <= ${u} and j.ends_at > ${u}))
         group by i.key`,
  );
}

/**
 * Per key, how the churn of a period starting at `start` changes from the midnight `midnight` to
 * `until` (after it, before the next): of the subscribers covered at `start`, those covered at the
 * midnight and not at `until` (+1) and those not covered at the midnight and covered at `until` (−1).
 * Only subscribers whose cover starts or ends in between can change.
 */
export function churnSinceMidnight(db: Queryable, dim: string, start: Date, midnight: Date, until: Date) {
  const s = start.toISOString();
  const m = midnight.toISOString();
  const u = until.toISOString();
  return rows<{ key: string; n: number }>(
    db,
    sql`select c.key, sum(case when x.at_start and x.at_midnight and not x.at_until then 1
                               when x.at_start and not x.at_midnight and x.at_until then -1 else 0 end)::int as n
          from (select subscriber_id, key from retention_intervals where dim = ${dim} and ends_at > ${m} and ends_at <= ${u}
                union
                select subscriber_id, key from retention_intervals where dim = ${dim} and starts_at > ${m} and starts_at <= ${u}) c
          cross join lateral (
            select coalesce(bool_or(j.starts_at <= ${s} and j.ends_at > ${s}), false) as at_start,
                   coalesce(bool_or(j.starts_at <= ${m} and j.ends_at > ${m}), false) as at_midnight,
                   coalesce(bool_or(j.starts_at <= ${u} and j.ends_at > ${u}), false) as at_until
              from retention_intervals j where j.subscriber_id = c.subscriber_id and j.dim = ${dim} and j.key = c.key) x
         group by c.key`,
  );
}

/** Cohort cells of a split: cohorts in [from, to] months, cells up to `to`. */
export function cohortCells(db: Queryable, dim: string, from: string, to: string) {
  return rows<{ key: string; cohort: string; month: string; members: number; active: number; income_cents: number }>(
    db,
    sql`select key, to_char(cohort, 'YYYY-MM-DD') as cohort, to_char(month, 'YYYY-MM-DD') as month, members, active, income_cents::float8 as income_cents
          from retention_cohorts where dim = ${dim} and cohort >= ${from}::date and cohort <= ${to}::date and month <= ${to}::date`,
  );
}

/** The keys of a split with a cover ending on or after `since`. */
export function retentionKeysSince(db: Queryable, dim: string, since: string) {
  return rows<{ key: string }>(
    db,
    sql`select k.key from (select distinct key from retention_cohorts where dim = ${dim}) k
         where exists (select 1 from retention_ends e where e.dim = ${dim} and e.key = k.key and e.day >= ${since}::date and e.n > 0)`,
  );
}

/** Empty the retention summaries (a rebuild). */
export async function resetRetentionSummaries(db: Queryable): Promise<void> {
  await db.execute(sql`truncate retention_covers, retention_intervals, retention_days, retention_ends, retention_payers, retention_payers_since, retention_cohorts`);
}

/** Drop every mark (a rebuild cuts every subscriber). */
export async function clearRetentionMarks(db: Queryable): Promise<void> {
  await db.execute(sql`delete from retention_dirty`);
}

/** The next tips subscribers with a subscription, by id. */
export async function subscriberIdsAfter(db: Queryable, after: number, limit: number): Promise<number[]> {
  const found = await rows<{ subscriber_id: number }>(
    db,
    sql`select distinct subscriber_id from ${subscriptions} where subscriber_id > ${after} order by subscriber_id limit ${limit}`,
  );
  return found.map((r) => Number(r.subscriber_id));
}

/** Fresh planner statistics and visibility map after a rebuild (index-only reads of the payers). */
export async function analyseRetentionSummaries(db: Queryable): Promise<void> {
  await db.execute(sql`vacuum analyze retention_covers, retention_intervals, retention_days, retention_ends, retention_payers, retention_payers_since, retention_cohorts`);
}

/** A refund handed to M-Pesa without a result yet, as the money check lists them. */
const UNSETTLED_REFUND = sql`(r.status in ('unknown', 'held') or (r.status = 'sending' and r.sent_at is not null))`;

export interface BridgeFigures {
  payments: string;
  received: string | null;
  refunded: string | null;
  refunded_n: string;
  unsettled: string | null;
  unsettled_n: string;
  unclaimed: string | null;
  unclaimed_n: string;
  invoices: string | null;
  invoices_n: string;
  credit_notes: string | null;
  credit_notes_n: string;
  next_month: string | null;
  next_month_n: string;
  claimed_n: string;
}

/** The money bridge's figures of a period (modules/reports/bridge.ts): one statement over the period's payments. */
export async function moneyBridgeFigures(db: Queryable, range: { from: string; to: string }): Promise<BridgeFigures> {
  const [f] = await rows<BridgeFigures>(
    db,
    sql`with p as (
          select id, status, amount_cents, refunded_cents from ${mpesaPayments}
           where status <> 'rejected' and ${inDays(sql`paid_at`, range)}),
        inv as (
          select i.payment_id,
                 sum(i.amount_cents) filter (where i.kind = 'invoice') as invoices, count(*) filter (where i.kind = 'invoice') as invoices_n,
                 sum(i.amount_cents) filter (where i.kind = 'credit_note') as credit_notes, count(*) filter (where i.kind = 'credit_note') as credit_notes_n,
                 sum(i.amount_cents) filter (where i.kind = 'invoice' and not ${inDays(sql`i.created_at`, { to: range.to })}) as next_month,
                 count(*) filter (where i.kind = 'invoice' and not ${inDays(sql`i.created_at`, { to: range.to })}) as next_month_n
            from ${taxInvoices} i where i.payment_id in (select id from p) group by i.payment_id),
        rf as (
          select r.payment_id, sum(r.amount_cents) as unsettled, count(*) as n
            from ${refunds} r where ${UNSETTLED_REFUND} and r.payment_id in (select id from p) group by r.payment_id)
        select count(*) as payments, sum(p.amount_cents) as received,
               sum(p.refunded_cents) as refunded, count(*) filter (where p.refunded_cents > 0) as refunded_n,
               sum(rf.unsettled) as unsettled, coalesce(sum(rf.n), 0) as unsettled_n,
               sum(p.amount_cents - p.refunded_cents - coalesce(rf.unsettled, 0)) filter (where p.status = 'unclaimed') as unclaimed,
               count(*) filter (where p.status = 'unclaimed') as unclaimed_n,
               sum(inv.invoices) as invoices, coalesce(sum(inv.invoices_n), 0) as invoices_n,
               sum(inv.credit_notes) as credit_notes, coalesce(sum(inv.credit_notes_n), 0) as credit_notes_n,
               sum(inv.next_month) as next_month, coalesce(sum(inv.next_month_n), 0) as next_month_n,
               count(*) filter (where p.status = 'claimed' and p.amount_cents - p.refunded_cents - coalesce(rf.unsettled, 0)
                                      - coalesce(inv.invoices, 0) + coalesce(inv.credit_notes, 0) <> 0) as claimed_n
          from p left join inv on inv.payment_id = p.id left join rf on rf.payment_id = p.id`,
  );
  return f!;
}

export interface LatePostingRow {
  /** The closed month (YYYY-MM) of the documents' payments. */
  month: string;
  invoices: string | null;
  invoices_n: string;
  credit_notes: string | null;
  credit_notes_n: string;
}

/**
 * The late postings of a period (decision 079): documents written in the period for payments of an
 * earlier month that had already closed when they were written (a late claim's invoice, a refund's or
 * a correction's credit note). The VAT return counts them in the period (taxPointSql, decision 075);
 * the period's own payments do not include them. One row per closed month.
 */
export function latePostings(db: Queryable, range: { from: string; to: string }): Promise<LatePostingRow[]> {
  return rows<LatePostingRow>(
    db,
    sql`select bp.month,
               sum(i.amount_cents) filter (where i.kind = 'invoice') as invoices, count(*) filter (where i.kind = 'invoice') as invoices_n,
               sum(i.amount_cents) filter (where i.kind = 'credit_note') as credit_notes, count(*) filter (where i.kind = 'credit_note') as credit_notes_n
          from ${taxInvoices} i
          join ${mpesaPayments} p on p.id = i.payment_id
          join ${booksPeriods} bp on bp.month = to_char(p.paid_at at time zone 'Africa/Nairobi', 'YYYY-MM') and bp.first_closed_at <= i.created_at
         where ${inDays(sql`i.created_at`, range)} and not ${inDays(sql`p.paid_at`, { from: range.from })}
         group by bp.month order by bp.month`,
  );
}

export interface ReconcilingRow {
  later: string | null;
  later_n: string;
  open_earlier: string | null;
  open_earlier_n: string;
  no_payment: string | null;
  no_payment_n: string;
}

/**
 * The documents whose tax point and M-Pesa time fall in different periods, outside the late postings
 * (decision 080), each summed signed (invoice +, credit note −) as the VAT return sums them:
 * `later`, documents of the period's payments whose tax point is after it (a credit note written
 * after the period, an invoice written after its month first closed); `open_earlier`, credit notes
 * written in the period for payments before it whose month had not closed when they were written
 * (their invoices are the earlier period's, by the tax point); `no_payment`, documents without an
 * M-Pesa payment written in the period (a bonus paid in cash). The bridge's sales (by payment) plus
 * the late postings, less `later`, plus `open_earlier` and `no_payment`, are the period's VAT return.
 */
export async function reconcilingDocuments(db: Queryable, range: { from: string; to: string }): Promise<ReconcilingRow> {
  const signed = sql`case when i.kind = 'invoice' then i.amount_cents else -i.amount_cents end`;
  const closedBy = sql`exists (select 1 from ${booksPeriods} bp
     where bp.month = to_char(p.paid_at at time zone 'Africa/Nairobi', 'YYYY-MM') and bp.first_closed_at <= i.created_at)`;
  const later = sql`p.status <> 'rejected' and ${inDays(sql`p.paid_at`, range)} and not ${inDays(sql`i.created_at`, { to: range.to })}
     and (i.kind = 'credit_note' or ${closedBy})`;
  const openEarlier = sql`i.kind = 'credit_note' and ${inDays(sql`i.created_at`, range)} and not ${inDays(sql`p.paid_at`, { from: range.from })} and not ${closedBy}`;
  const noPayment = sql`i.payment_id is null and ${inDays(sql`i.created_at`, range)}`;
  const [r] = await rows<ReconcilingRow>(
    db,
    sql`select sum(${signed}) filter (where ${later}) as later, count(*) filter (where ${later}) as later_n,
               sum(${signed}) filter (where ${openEarlier}) as open_earlier, count(*) filter (where ${openEarlier}) as open_earlier_n,
               sum(${signed}) filter (where ${noPayment}) as no_payment, count(*) filter (where ${noPayment}) as no_payment_n
          from ${taxInvoices} i left join ${mpesaPayments} p on p.id = i.payment_id
         where ${inDays(sql`i.created_at`, range)}
            or i.payment_id in (select id from ${mpesaPayments} where status <> 'rejected' and ${inDays(sql`paid_at`, range)})`,
  );
  return r!;
}

// ---- The lever split of the retention figures (decision 091): read from the stored sales, not the summaries.

/**
 * The lever of a sale (decision 091), the one place that answers "which lever made this sale" (decision 091). Each lever is one
 * branch: a select yielding, per sale it made, exactly these columns:
 *
 *   subscription_id  bigint  the sale (subscriptions.id)
 *   lever            text    the lever's name, one of SALE_LEVERS
 *   source_id        bigint  what pulled it: the promo code, the referrer, the agent, the trial, the pause
 *   discount_cents   bigint  the discount given on this sale (0 when none)
 *   commission_cents bigint  the commission owed for this sale (0 when none)
 *
 * A lever that joins (referral, agent, trial, pause) adds its branch here and nothing else changes.
 */
export const LEVER_BRANCHES: Partial<Record<Exclude<SaleLever, 'none'>, SQL>> = {
  // A promo code's use (decision 077): its discount.
  code: sql`select u.subscription_id, 'code'::text as lever, u.code_id::bigint as source_id,
                   u.discount_cents::bigint as discount_cents, 0::bigint as commission_cents
              from ${promoCodeUses} u join ${promoCodes} c on c.id = u.code_id
             where u.status = 'used' and u.subscription_id is not null and c.kind <> 'referral'`,
  // A subscriber's referral code on a first purchase (decision 088): no discount, no commission (the
  // referrer's free days are no money).
  referral: sql`select u.subscription_id, 'referral'::text as lever, c.referrer_subscriber_id::bigint as source_id,
                       0::bigint as discount_cents, 0::bigint as commission_cents
                  from ${promoCodeUses} u join ${promoCodes} c on c.id = u.code_id
                 where u.status = 'used' and u.subscription_id is not null and c.kind = 'referral' and c.referrer_subscriber_id is not null`,
  // An agent's code on a first purchase, and every later sale whose payment earned the agent a
  // commission (decision 088): the commission lines of a payment (clawbacks included) go to its first
  // sale, so a payment's commission is counted once.
  agent: sql`select u.subscription_id, 'agent'::text as lever, c.referrer_agent_id::bigint as source_id,
                    0::bigint as discount_cents, 0::bigint as commission_cents
               from ${promoCodeUses} u join ${promoCodes} c on c.id = u.code_id
              where u.status = 'used' and u.subscription_id is not null and c.kind = 'referral' and c.referrer_agent_id is not null
             union all
             select (select min(s.id) from ${subscriptions} s where s.payment_id = a.payment_id), 'agent'::text, a.agent_id::bigint,
                    0::bigint, sum(a.amount_cents)::bigint
               from ${agentCommissions} a
              group by a.payment_id, a.agent_id
             having (select min(s.id) from ${subscriptions} s where s.payment_id = a.payment_id) is not null`,
  // A free trial's conversion (decision 089): the paid subscription that followed it.
  trial: sql`select t.converted_subscription_id as subscription_id, 'trial'::text as lever, t.id::bigint as source_id,
                    0::bigint as discount_cents, 0::bigint as commission_cents
               from ${trialUses} t where t.converted_subscription_id is not null`,
  // A pause resumed (decision 090): the first paid sale of the paused category and medium made once the
  // pause had ended (the rule of `saleAfterPause` in pauses/queries.ts).
  pause: sql`select a.subscription_id, 'pause'::text as lever, a.pause_id as source_id, 0::bigint as discount_cents, 0::bigint as commission_cents
               from (select p.id::bigint as pause_id,
                            (select sub.id from ${subscriptions} sub
                              where sub.subscriber_id = p.subscriber_id and sub.bet_category_id is not distinct from p.bet_category_id
                                and sub.medium is not distinct from p.medium and sub.created_at >= p.ends_at and sub.reversed_at is null
                                and sub.amount_cents > 0 and sub.source not in ('manual', 'trial')
                              order by sub.created_at, sub.id limit 1) as subscription_id
                       from ${subscriptionPauses} p) a
              where a.subscription_id is not null`,
};

/** A lever's rank in SALE_LEVERS: the first lever of a sale's several wins. */
function precedenceSql(): SQL {
  const cases = SALE_LEVERS.map((l, i) => sql`when ${l} then ${i}`);
  return sql`case b.lever ${sql.join(cases, sql` `)} end`;
}

/**
 * One row per sale that any lever made: its lever (the first by precedence), that lever's source,
 * and the discount and commission of all its levers summed (a cost is never lost to precedence).
 * A sale not in it was made by no lever.
 */
export function saleLeversSql(): SQL {
  const branches = Object.values(LEVER_BRANCHES);
  return sql`select subscription_id,
                    (array_agg(lever order by ${precedenceSql()}, source_id))[1] as lever,
                    (array_agg(source_id order by ${precedenceSql()}, source_id))[1] as source_id,
                    sum(discount_cents)::bigint as discount_cents,
                    sum(commission_cents)::bigint as commission_cents
               from (${sql.join(branches, sql` union all `)}) b
              group by subscription_id`;
}


export interface LeverHistoryRow extends SubscriptionHistoryRow {
  lever: string;
  discount_cents: string | number;
  commission_cents: string | number;
}

/**
 * Every tips subscription, with the lever that made it, of the subscribers with a cover ending on
 * or after `since` and bought before `until`: their whole history, so the first sale (the one
 * that won them) and each renewal's predecessor are in it.
 */
export function leverHistory(db: Queryable, since: Date, until: Date) {
  return rows<LeverHistoryRow>(
    db,
    sql`with levers as (${saleLeversSql()}),
             buyers as (select distinct subscriber_id from ${subscriptions}
                         where subscriber_id is not null and expires_at >= ${since.toISOString()} and created_at < ${until.toISOString()})
        select s.id, s.subscriber_id, s.bet_category_id, s.medium, s.source, s.amount_cents, s.created_at, s.starts_at, s.expires_at, s.reversed_at,
               (select r.origin from ${stkRequests} r where r.payment_id = s.payment_id and s.source = 'stk' order by r.id limit 1) as origin,
               coalesce(l.lever, 'none') as lever, coalesce(l.discount_cents, 0) as discount_cents, coalesce(l.commission_cents, 0) as commission_cents
          from ${subscriptions} s
          join buyers b on b.subscriber_id = s.subscriber_id
          left join levers l on l.subscription_id = s.id`,
  );
}
