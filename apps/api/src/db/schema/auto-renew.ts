import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { AUTO_RENEW_FREQUENCIES, STANDING_ORDER_STATUSES } from '@betdesk/contract';
import { pricePackages, tipsSubscribers } from './tips-core.ts';
import { subscriptions } from './money.ts';
import { users } from './users.ts';

/**
 * A subscriber's M-Pesa Ratiba standing order for one package (decision 042). Its payments are
 * ordinary paybill confirmations; this row says which package they renew, when the next is due,
 * and whether a missed one was told about.
 */
export const standingOrders = pgTable(
  'standing_orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => tipsSubscribers.id),
    packageId: integer('package_id')
      .notNull()
      .references(() => pricePackages.id),
    /** The subscription it was turned on from. */
    subscriptionId: bigint('subscription_id', { mode: 'number' }).references(() => subscriptions.id),
    phone: text('phone').notNull(),
    /** Ratiba's StandingOrderName: unique per customer, ours. */
    name: text('name').notNull().unique(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    frequency: text('frequency', { enum: AUTO_RENEW_FREQUENCIES }).notNull(),
    accountReference: text('account_reference').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    /** The Nairobi day the next payment is due. */
    nextDate: date('next_date', { mode: 'string' }).notNull(),
    status: text('status', { enum: STANDING_ORDER_STATUSES }).notNull(),
    /** Daraja's responseRefID of the create request: the callback carries it back. */
    responseRefId: text('response_ref_id').unique(),
    resultCode: text('result_code'),
    resultDesc: text('result_desc'),
    /** The last due day that passed with no payment (told once). */
    missedDate: date('missed_date', { mode: 'string' }),
    lastPaymentId: bigint('last_payment_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    /** The staff member who stopped it; null when the subscriber did. */
    stoppedBy: integer('stopped_by').references(() => users.id),
  },
  (t) => [
    // One live standing order per subscriber and package: turning it on twice is one order.
    uniqueIndex('standing_orders_live_idx')
      .on(t.subscriberId, t.packageId)
      .where(sql`${t.status} in ('requested', 'pending', 'active')`),
    index('standing_orders_subscriber_idx').on(t.subscriberId),
    index('standing_orders_due_idx').on(t.nextDate).where(sql`${t.status} = 'active'`),
    index('standing_orders_requested_idx').on(t.createdAt).where(sql`${t.status} = 'requested'`),
  ],
);
