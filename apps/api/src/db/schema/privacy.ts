import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Kenya's Data Protection Act 2019 (decision 025): marketing consent, people's requests about their
 * data, erasures and the breach register.
 */

export const CONSENT_CHANNELS = ['portal', 'sms', 'ussd', 'staff'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/** A phone's marketing consent as it stands: given or withdrawn, when, how, to what wording. */
export const marketingConsents = pgTable('marketing_consents', {
  /** E.164 digits. */
  phone: text('phone').primaryKey(),
  given: boolean('given').notNull(),
  channel: text('channel', { enum: CONSENT_CHANNELS }).notNull(),
  /** The exact words the person agreed to (or withdrew from). */
  wording: text('wording').notNull(),
  note: text('note'),
  recordedBy: integer('recorded_by').references(() => users.id),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every change of a phone's consent, for the proof the commissioner may ask for. */
export const marketingConsentEvents = pgTable(
  'marketing_consent_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    phone: text('phone').notNull(),
    given: boolean('given').notNull(),
    channel: text('channel', { enum: CONSENT_CHANNELS }).notNull(),
    wording: text('wording').notNull(),
    note: text('note'),
    recordedBy: integer('recorded_by').references(() => users.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('marketing_consent_events_phone_idx').on(t.phone, t.id)],
);

/**
 * What an erased person's phone became on their records ('erased-c12', 'erased-s7', and 'erased'
 * on messages): a record holding it is an erased person's, never a number to write to.
 */
export const ERASED_PHONE_PREFIX = 'erased';

/**
 * Phones whose person was erased, kept only as a SHA-256: no message of any class goes to them, and a
 * later M-Pesa payment from one is stored unclaimed and flagged instead of creating a subscriber.
 */
export const erasedPhones = pgTable('erased_phones', {
  phoneHash: text('phone_hash').primaryKey(),
  erasedAt: timestamp('erased_at', { withTimezone: true }).notNull().defaultNow(),
  /** 'request' (the person asked) or 'retention' (inactive past the retention period). */
  reason: text('reason').notNull(),
});

export const PRIVACY_REQUEST_KINDS = ['access', 'rectification', 'erasure', 'objection'] as const;

/** A person's request about their data, with the deadline the regulations give. */
export const privacyRequests = pgTable(
  'privacy_requests',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: PRIVACY_REQUEST_KINDS }).notNull(),
    /** The phone asked about; replaced by its SHA-256 once the person is erased. */
    phone: text('phone').notNull(),
    note: text('note'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    doneAt: timestamp('done_at', { withTimezone: true }),
    outcome: text('outcome'),
    recordedBy: integer('recorded_by').references(() => users.id),
    doneBy: integer('done_by').references(() => users.id),
  },
  (t) => [index('privacy_requests_open_idx').on(t.dueAt).where(sql`done_at is null`)],
);

/** The breach register: what happened, to how many, and when the Data Commissioner was told. */
export const dataBreaches = pgTable(
  'data_breaches',
  {
    id: serial('id').primaryKey(),
    discoveredAt: timestamp('discovered_at', { withTimezone: true }).notNull(),
    description: text('description').notNull(),
    peopleAffected: integer('people_affected').notNull(),
    dataConcerned: text('data_concerned').notNull(),
    measures: text('measures'),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    notificationRef: text('notification_ref'),
    recordedBy: integer('recorded_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('data_breaches_open_idx').on(t.discoveredAt).where(sql`notified_at is null`)],
);

/** Each run of the daily retention job: what it did, and how far it emptied old SMS texts. */
export const retentionRuns = pgTable('retention_runs', {
  id: serial('id').primaryKey(),
  ranAt: timestamp('ran_at', { withTimezone: true }).notNull().defaultNow(),
  peoplePseudonymised: integer('people_pseudonymised').notNull(),
  smsTextsEmptied: integer('sms_texts_emptied').notNull(),
  /** The highest sms_messages id whose text this and earlier runs looked at. */
  smsWatermarkId: bigint('sms_watermark_id', { mode: 'number' }).notNull(),
});
