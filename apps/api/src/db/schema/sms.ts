import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const SMS_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

/**
 * The SMS outbox: every message the business decides to send is a row here, written in the same
 * transaction as the decision. `dedupe_key` makes a send idempotent per (intent, recipient).
 */
export const smsMessages = pgTable(
  'sms_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    intent: text('intent').notNull(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    /** E.164 digits. */
    recipient: text('recipient').notNull(),
    body: text('body').notNull(),
    parts: integer('parts').notNull(),
    status: text('status', { enum: SMS_STATUSES }).notNull().default('queued'),
    providerMessageId: text('provider_message_id'),
    costCents: bigint('cost_cents', { mode: 'number' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    failureReason: text('failure_reason'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sms_status_idx').on(t.status, t.id),
    index('sms_recipient_idx').on(t.recipient),
    index('sms_provider_id_idx').on(t.providerMessageId),
  ],
);
