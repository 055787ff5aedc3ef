import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Counts and sums per key and Africa/Nairobi day (docs/decisions/015-scale-summaries.md), kept
 * exact by statement triggers in the transaction that changes the rows: totals and dashboard
 * figures read a few hundred of these rows instead of millions of base rows. Always read through
 * apps/api/src/db/summaries.ts, which adds the pending deltas.
 */
export const summaryDays = pgTable(
  'summary_days',
  {
    key: text('key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.key, t.day] }),
    // A sum over a key's days (the dashboards' totals: up to ~15,000 days × keys at reference scale)
    // reads the index alone, not the table's pages (decision 045).
    index('summary_days_sums_idx').on(t.key, t.day, t.n, t.amountCents),
  ],
);

/**
 * Changes not yet folded into summary_days. Triggers only append here, so concurrent money changes
 * never wait on one another's summary row; a job folds them in (compact_summaries()).
 */
export const summaryDeltas = pgTable(
  'summary_deltas',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [index('summary_deltas_key_day_idx').on(t.key, t.day)],
);

/**
 * The retention summaries (docs/decisions/043-retention-summaries.md): what each tips subscriber's
 * purchases add to the retention figures, kept per subscriber so a change is taken back and redone.
 * `dim` is the split ('all', 'category', 'medium', 'channel') and `key` its value ('all', a category
 * id or 'none', 'sms'/'web'/'none', a channel). Written only by reports/retention-summary.ts.
 */

/** Subscribers whose subscriptions changed since their part of the summaries was written (a trigger marks them). */
export const retentionDirty = pgTable('retention_dirty', {
  subscriberId: integer('subscriber_id').primaryKey(),
  markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Each unrefunded tips subscription as last summarised, with the lag to its renewal (null: none). */
export const retentionCovers = pgTable(
  'retention_covers',
  {
    subscriptionId: bigint('subscription_id', { mode: 'number' }).primaryKey(),
    subscriberId: integer('subscriber_id').notNull(),
    categoryId: integer('category_id'),
    medium: text('medium'),
    source: text('source').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The channel of the subscriber's first purchase. */
    channel: text('channel').notNull(),
    /** Milliseconds from its end to the purchase of the same line that carried it on; null when none did. */
    renewalLagMs: bigint('renewal_lag_ms', { mode: 'number' }),
  },
  (t) => [index('retention_covers_subscriber_idx').on(t.subscriberId), index('retention_covers_expires_idx').on(t.expiresAt)],
);

/** Merged cover per subscriber and split: [starts_at, ends_at), and when the next one starts. */
export const retentionIntervals = pgTable(
  'retention_intervals',
  {
    subscriberId: integer('subscriber_id').notNull(),
    dim: text('dim').notNull(),
    key: text('key').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    nextStartsAt: timestamp('next_starts_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.subscriberId, t.dim, t.key, t.startsAt] }),
    index('retention_intervals_ends_idx').on(t.dim, t.endsAt),
    index('retention_intervals_starts_idx').on(t.dim, t.startsAt),
  ],
);

/**
 * Per split and Nairobi day: covers starting and ending their run of midnights (active at a
 * midnight = the sum of in minus out up to it), churn of the calendar day, week and month starting
 * that day, income, and the income from payers of the calendar period before (net revenue retention).
 */
export const retentionDays = pgTable(
  'retention_days',
  {
    dim: text('dim').notNull(),
    key: text('key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    coverIn: integer('cover_in').notNull().default(0),
    coverOut: integer('cover_out').notNull().default(0),
    churnDay: integer('churn_day').notNull().default(0),
    churnWeek: integer('churn_week').notNull().default(0),
    churnMonth: integer('churn_month').notNull().default(0),
    incomeCents: bigint('income_cents', { mode: 'number' }).notNull().default(0),
    retainedDayCents: bigint('retained_day_cents', { mode: 'number' }).notNull().default(0),
    retainedWeekCents: bigint('retained_week_cents', { mode: 'number' }).notNull().default(0),
    retainedMonthCents: bigint('retained_month_cents', { mode: 'number' }).notNull().default(0),
    /** Distinct payers of the calendar day, week and month starting that day. */
    payersDay: integer('payers_day').notNull().default(0),
    payersWeek: integer('payers_week').notNull().default(0),
    payersMonth: integer('payers_month').notNull().default(0),
    /**
     * On a midnight inside a calendar week (month): the change in that period's churn so far, of
     * the subscribers covered at its start (churn so far at a midnight = the sum from its start).
     */
    churnSoFarWeek: integer('churn_so_far_week').notNull().default(0),
    churnSoFarMonth: integer('churn_so_far_month').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dim, t.key, t.day] })],
);

/** Covers ended per split, Nairobi day of the end and renewal lag in whole days (0–60; 61: later or never). */
export const retentionEnds = pgTable(
  'retention_ends',
  {
    dim: text('dim').notNull(),
    key: text('key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    lagDays: integer('lag_days').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.dim, t.key, t.day, t.lagDays] })],
);

/** Purchases per split, Nairobi day and day of the same payer's purchase before (1900-01-01: none): distinct payers of any range. */
export const retentionPayers = pgTable(
  'retention_payers',
  {
    dim: text('dim').notNull(),
    key: text('key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    prevDay: date('prev_day', { mode: 'string' }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.dim, t.key, t.day, t.prevDay] }), index('retention_payers_prev_idx').on(t.dim, t.prevDay, t.day, t.key, t.n)],
);

/**
 * Purchases per split and Nairobi day whose payer's purchase before was before the month starting
 * `since` (one row per month start after that purchase, up to the day); `since` 1900-01-01: a first
 * purchase. Distinct payers of a range starting on `since` = the sum over the range's days.
 */
export const retentionPayersSince = pgTable(
  'retention_payers_since',
  {
    dim: text('dim').notNull(),
    key: text('key').notNull(),
    since: date('since', { mode: 'string' }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.dim, t.since, t.day, t.key] })],
);

/** Monthly cohorts per split: members (on the cohort's own month), those with a cover in `month`, their income in it. */
export const retentionCohorts = pgTable(
  'retention_cohorts',
  {
    dim: text('dim').notNull(),
    key: text('key').notNull(),
    cohort: date('cohort', { mode: 'string' }).notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    members: integer('members').notNull().default(0),
    active: integer('active').notNull().default(0),
    incomeCents: bigint('income_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dim, t.key, t.cohort, t.month] })],
);
