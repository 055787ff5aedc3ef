import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { REFUND_EFFECTS, REFUND_METHODS, REFUND_REASONS, REFUND_STATUSES } from '@betdesk/contract';
import { users } from './users.ts';
import { mpesaPayments, subscriptions } from './money.ts';

/**
 * Money going back to a payer (decisions 036, 055): asked by one admin, approved by another, sent to M-Pesa
 * once (Reversal or B2C), and done or failed only by M-Pesa's result. Every shilling out names the
 * payment it came in with.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => mpesaPayments.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    reason: text('reason', { enum: REFUND_REASONS }).notNull(),
    note: text('note'),
    method: text('method', { enum: REFUND_METHODS }).notNull(),
    /** What happens, on success, to the subscription the payment bought (named here when asked). */
    effect: text('effect', { enum: REFUND_EFFECTS }).notNull().default('none'),
    subscriptionId: bigint('subscription_id', { mode: 'number' }).references(() => subscriptions.id),
    /** B2C's receiver (E.164 digits); null for a Reversal, which returns to whoever paid. */
    phone: text('phone'),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('awaiting_approval'),
    requestedBy: integer('requested_by')
      .notNull()
      .references(() => users.id),
    approvedBy: integer('approved_by').references(() => users.id),
    /** The further approval a refund passing the day's limit needs. */
    secondApprovedBy: integer('second_approved_by').references(() => users.id),
    cancelledBy: integer('cancelled_by').references(() => users.id),
    /** Ours, unique per refund: B2C's OriginatorConversationID and the key of the status query. */
    originatorConversationId: text('originator_conversation_id').notNull().unique(),
    /** Daraja's ids from its acknowledgement; null until (and if) it was read. */
    conversationId: text('conversation_id'),
    mpesaReceipt: text('mpesa_receipt'),
    resultCode: text('result_code'),
    resultDesc: text('result_desc'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    /**
     * Set, and committed, before the request leaves for M-Pesa: a refund with it set is never sent
     * again (a worker killed after sending leaves it set; a status query settles it).
     */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    statusQueriedAt: timestamp('status_queried_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    check('refunds_amount_positive', sql`${t.amountCents} > 0`),
    check('refunds_b2c_phone', sql`${t.method} <> 'b2c' or ${t.phone} is not null`),
    index('refunds_payment_idx').on(t.paymentId),
    index('refunds_status_created_idx').on(t.status, t.createdAt, t.id),
    index('refunds_created_idx').on(t.createdAt, t.id),
    index('refunds_conversation_idx').on(t.conversationId),
  ],
);
