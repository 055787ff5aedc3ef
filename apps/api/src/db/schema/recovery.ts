import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { pricePackages, tipsSubscribers } from './tips-core.ts';
import { stkRequests } from './mpesa.ts';

/** How a failed payment request is followed up, by its M-Pesa result code (decision 037). */
export const RECOVERY_CLASSES = ['retry', 'remind'] as const;
/** pending until due; then done (retry sent / reminder queued), cancelled (paid or covered meanwhile) or skipped. */
export const RECOVERY_STATUSES = ['pending', 'done', 'cancelled', 'skipped'] as const;

/**
 * One follow-up of one failed tips payment request: at most one per request (the unique key), so
 * however often the job runs, a request is retried once or reminded once. A retry's own request is
 * never followed up again.
 */
export const paymentRecoveries = pgTable(
  'payment_recoveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    stkRequestId: bigint('stk_request_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => stkRequests.id),
    kind: text('kind', { enum: RECOVERY_CLASSES }).notNull(),
    resultCode: text('result_code').notNull(),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => tipsSubscribers.id),
    packageId: integer('package_id')
      .notNull()
      .references(() => pricePackages.id),
    /** When the failed request was sent: a payment after it cancels the follow-up. */
    failedRequestAt: timestamp('failed_request_at', { withTimezone: true }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: RECOVERY_STATUSES }).notNull().default('pending'),
    /** Why it was cancelled or skipped, in words. */
    note: text('note'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    /** The retry's own payment request. */
    retryStkRequestId: bigint('retry_stk_request_id', { mode: 'number' }).references(() => stkRequests.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_recoveries_due_idx').on(t.dueAt).where(sql`${t.status} = 'pending'`),
    index('payment_recoveries_done_idx').on(t.doneAt).where(sql`${t.doneAt} is not null`),
    index('payment_recoveries_retry_idx').on(t.retryStkRequestId).where(sql`${t.retryStkRequestId} is not null`),
  ],
);
