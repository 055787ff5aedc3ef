import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, smallint, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { clients } from './clients.ts';
import { tipsSubscribers } from './tips-core.ts';

/**
 * A message's fate. `sending`: claimed by a dispatcher (handed to the gateway once `handed_at` is
 * set). `unconfirmed`: handed to the gateway but the answer was lost (a crash, a cut connection);
 * it is never resent automatically, a person decides (docs/decisions/sms-delivery.md).
 */
export const SMS_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'unconfirmed'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

/** Lower goes first: one-off messages (a temporary password) do not wait behind a tips blast. */
export const SMS_PRIORITY = { single: 0, bulk: 1 } as const;

/**
 * Kenya's SMS rules: transactional (receipts, replies, passwords, a staff member's message to one
 * person) always go; service (paid tips) and promotional (reminders, broadcasts) never reach an
 * opted-out phone; promotional ones only leave inside the promotional window.
 */
export const SMS_CLASSES = ['transactional', 'service', 'promotional'] as const;
export type SmsClass = (typeof SMS_CLASSES)[number];

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
    /** Real parts (GSM-7 / UCS-2) computed at queueing, replaced by the gateway's count once sent. */
    parts: integer('parts').notNull(),
    status: text('status', { enum: SMS_STATUSES }).notNull().default('queued'),
    priority: smallint('priority').notNull().default(SMS_PRIORITY.single),
    /** The person the message is for, when the sender knows it (the phone is the recipient either way). */
    clientId: integer('client_id').references(() => clients.id),
    subscriberId: integer('subscriber_id').references(() => tipsSubscribers.id),
    providerMessageId: text('provider_message_id'),
    /** The gateway's last word: its per-recipient status at sending, then the delivery report's. */
    providerStatus: text('provider_status'),
    networkCode: text('network_code'),
    costCents: bigint('cost_cents', { mode: 'number' }),
    attempts: integer('attempts').notNull().default(0),
    /** A queued row is not claimed before this time (retry backoff). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** The dispatcher run holding a `sending` row, and until when its claim lasts. */
    claimToken: text('claim_token'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** Set just before the request leaves: from here on the gateway may have sent it. */
    handedAt: timestamp('handed_at', { withTimezone: true }),
    lastError: text('last_error'),
    failureReason: text('failure_reason'),
    /**
     * Why it failed, as one short gateway word (InvalidSenderId, InsufficientBalance, AbsentSubscriber ...):
     * what an admin resends by ("resend all failed by cause") and what the dashboard groups.
     */
    failureCause: text('failure_cause'),
    createdBy: integer('created_by').references(() => users.id),
    /** A message an admin sent again (a failed or unconfirmed one): the row it copies. */
    resentFromId: bigint('resent_from_id', { mode: 'number' }).references((): AnyPgColumn => smsMessages.id),
    smsClass: text('sms_class', { enum: SMS_CLASSES }).notNull().default('transactional'),
    /** The broadcast this message is part of (its counts are read by this column). */
    broadcastId: bigint('broadcast_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** The SMS provider the message was claimed for and handed to (decision 062); null until claimed. */
    provider: text('provider'),
    /** When the provider was last asked for this sent message's delivery report (getdlr, decision 062). */
    dlrAskedAt: timestamp('dlr_asked_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sms_status_idx').on(t.status, t.id),
    index('sms_recipient_idx').on(t.recipient),
    index('sms_provider_id_idx').on(t.providerMessageId),
    index('sms_due_idx').on(t.priority, t.id).where(sql`${t.status} = 'queued'`),
    index('sms_claims_idx').on(t.claimedUntil).where(sql`${t.status} = 'sending'`),
    index('sms_recipient_trgm_idx').using('gin', sql`${t.recipient} gin_trgm_ops`),
    // A person's messages and the SMS log page newest first off these.
    index('sms_client_idx').on(t.clientId, t.id),
    index('sms_subscriber_idx').on(t.subscriberId, t.id),
    index('sms_created_idx').on(t.createdAt, t.id),
    index('sms_status_created_idx').on(t.status, t.createdAt, t.id),
    index('sms_failure_cause_idx').on(t.failureCause, t.id).where(sql`${t.failureCause} is not null`),
    index('sms_broadcast_idx').on(t.broadcastId, t.status).where(sql`${t.broadcastId} is not null`),
    index('sms_provider_created_idx').on(t.provider, t.createdAt, t.id).where(sql`${t.provider} is not null`),
    index('sms_dlr_due_idx').on(t.provider, t.sentAt).where(sql`${t.status} = 'sent'`),
    index('sms_resent_from_idx').on(t.resentFromId).where(sql`${t.resentFromId} is not null`),
    // View SMS tips counts each tip version's messages by status: the version is the second part
    // of an SMS tip's dedupe key (`sms-tip:<version id>:<phone>`), so this is an index-only count.
    index('sms_tip_version_idx')
      .on(sql`split_part(${t.dedupeKey}, ':', 2)`, t.status)
      .where(sql`${t.intent} = 'tips.sms-tip'`),
  ],
);

export const SMS_CIRCUIT_STATES = ['closed', 'open', 'half-open'] as const;
export type SmsCircuitState = (typeof SMS_CIRCUIT_STATES)[number];

/**
 * Each SMS provider's health, shared by every dispatcher (decision 062): closed (used), open (not
 * used until `probe_at`, with the reason), half-open (one probe batch may go). Also its last
 * polled balance and the sends and failures the metrics count.
 */
export const smsProviderCircuits = pgTable('sms_provider_circuits', {
  provider: text('provider').primaryKey(),
  state: text('state', { enum: SMS_CIRCUIT_STATES }).notNull().default('closed'),
  reason: text('reason'),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  openedAt: timestamp('opened_at', { withTimezone: true }),
  probeAt: timestamp('probe_at', { withTimezone: true }),
  balanceCents: bigint('balance_cents', { mode: 'number' }),
  balanceAt: timestamp('balance_at', { withTimezone: true }),
  sendsTotal: bigint('sends_total', { mode: 'number' }).notNull().default(0),
  failuresTotal: bigint('failures_total', { mode: 'number' }).notNull().default(0),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});
