import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { AGENT_PAYOUT_STATUSES } from '@betdesk/contract';
import { users } from './users.ts';
import { agents } from './promo-codes.ts';

/**
 * An agent's payout of a closed Nairobi month (decision 093): asked by one admin, approved by
 * another, sent once by M-Pesa B2C to the agent's phone, and paid or failed only by M-Pesa's result.
 * One per agent and month. `commissionsCents` is the month's ledger lines, `carriedCents` what
 * earlier months left (a negative month, a failed payout, cents under a shilling); `amountCents`
 * is the whole shillings of their sum, and the cents left carry on.
 */
export const agentPayouts = pgTable(
  'agent_payouts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    agentId: integer('agent_id')
      .notNull()
      .references(() => agents.id),
    month: text('month').notNull(),
    commissionsCents: bigint('commissions_cents', { mode: 'number' }).notNull(),
    carriedCents: bigint('carried_cents', { mode: 'number' }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** B2C's receiver (E.164 digits): the agent's phone when it was asked. */
    phone: text('phone').notNull(),
    status: text('status', { enum: AGENT_PAYOUT_STATUSES }).notNull().default('awaiting_approval'),
    requestedBy: integer('requested_by')
      .notNull()
      .references(() => users.id),
    approvedBy: integer('approved_by').references(() => users.id),
    /** Ours, unique per payout: B2C's OriginatorConversationID and the key of the status query. */
    originatorConversationId: text('originator_conversation_id').notNull().unique(),
    conversationId: text('conversation_id'),
    mpesaReceipt: text('mpesa_receipt'),
    resultCode: text('result_code'),
    resultDesc: text('result_desc'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    /** Set, and committed, before the request leaves for M-Pesa: a payout with it set is never sent again. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    statusQueriedAt: timestamp('status_queried_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    check('agent_payouts_whole_shillings', sql`${t.amountCents} > 0 and ${t.amountCents} % 100 = 0`),
    check('agent_payouts_sum', sql`${t.amountCents} <= ${t.commissionsCents} + ${t.carriedCents}`),
    check('agent_payouts_status', sql`${t.status} in ('awaiting_approval', 'sending', 'unknown', 'held', 'paid', 'failed')`),
    uniqueIndex('agent_payouts_agent_month_key').on(t.agentId, t.month),
    index('agent_payouts_status_idx').on(t.status, t.createdAt, t.id),
    index('agent_payouts_conversation_idx').on(t.conversationId),
  ],
);
