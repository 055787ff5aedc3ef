import { bigint, date, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

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
  (t) => [primaryKey({ columns: [t.key, t.day] })],
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
