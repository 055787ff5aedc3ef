import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { clients } from './clients.ts';
import { betCategories, tipsSubscribers } from './tips-core.ts';

/** How a phone came to opt out (or back in). */
export const OPT_OUT_SOURCES = ['keyword', 'provider', 'blacklist', 'dnd', 'admin', 'ussd', 'portal'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/**
 * The phones that receive no service or promotional SMS: one row per (phone, scope) while it holds.
 * `scope` is 'all' (STOP), a bet category id as text (STOP <code>: that category's tips only) or
 * 'promotional' (the network's Do Not Disturb refused a send: offers only, paid tips still go).
 */
export const smsOptOuts = pgTable(
  'sms_opt_outs',
  {
    /** E.164 digits. */
    phone: text('phone').notNull(),
    scope: text('scope').notNull(),
    betCategoryId: integer('bet_category_id').references(() => betCategories.id),
    source: text('source', { enum: OPT_OUT_SOURCES }).notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.phone, t.scope] })],
);

/** Every opt-out and opt-in of a phone, oldest first: the history staff read on a person's page. */
export const smsOptOutEvents = pgTable(
  'sms_opt_out_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    phone: text('phone').notNull(),
    scope: text('scope').notNull(),
    action: text('action', { enum: ['opt-out', 'opt-in'] }).notNull(),
    source: text('source', { enum: OPT_OUT_SOURCES }).notNull(),
    reason: text('reason'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sms_opt_out_events_phone_idx').on(t.phone, t.id)],
);

/** Messages people sent to the business (Africa's Talking incoming messages), stored once by `id`. */
export const smsInbound = pgTable(
  'sms_inbound',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    providerId: text('provider_id').notNull().unique(),
    /** E.164 digits when it is a phone, else as received. */
    phone: text('phone').notNull(),
    toCode: text('to_code'),
    text: text('text').notNull(),
    linkId: text('link_id'),
    networkCode: text('network_code'),
    /** The gateway's `date`, as sent. */
    providerDate: text('provider_date'),
    subscriberId: integer('subscriber_id').references(() => tipsSubscribers.id),
    clientId: integer('client_id').references(() => clients.id),
    /** The keyword understood: STOP, STOP <code>, START, a category code, HELP (anything else). */
    keyword: text('keyword').notNull(),
    /** What was done, in staff words. */
    action: text('action').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sms_inbound_received_idx').on(t.receivedAt, t.id),
    index('sms_inbound_phone_trgm_idx').using('gin', sql`${t.phone} gin_trgm_ops`),
  ],
);

export const BROADCAST_SEGMENTS = ['category-active', 'category-lapsed', 'clients-all', 'clients-active'] as const;
export type BroadcastSegment = (typeof BROADCAST_SEGMENTS)[number];

/** One promotional text sent to a segment; its messages are outbox rows with `broadcast_id`. */
export const broadcasts = pgTable('broadcasts', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  /** The form's key: a double click or a retried request finds the broadcast already made. */
  idempotencyKey: text('idempotency_key').notNull().unique(),
  segment: text('segment', { enum: BROADCAST_SEGMENTS }).notNull(),
  betCategoryId: integer('bet_category_id').references(() => betCategories.id),
  lapsedDays: integer('lapsed_days'),
  body: text('body').notNull(),
  recipients: integer('recipients').notNull(),
  createdBy: integer('created_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** The language of its responsible-gambling lines (decision 061); null before them. */
  language: text('language', { enum: ['en', 'sw'] }),
  /** The advert approval reference of its campaign, as the sender typed it (decision 061). */
  approvalReference: text('approval_reference'),
});

/** The languages customer texts are written in (apps/api/src/customer-texts). */
export const CUSTOMER_LANGUAGES = ['en', 'sw'] as const;
export const LANGUAGE_SOURCES = ['ussd', 'sms', 'portal', 'staff'] as const;

/**
 * The language a phone reads its SMS, USSD screens and portal pages in, as the person (or staff on
 * their behalf) last chose it; a phone without a row reads the business's default
 * (`customer_language_default`). One row per phone, whoever it belongs to (client, subscriber or
 * neither), so the choice follows the person across channels.
 */
export const phoneLanguages = pgTable('phone_languages', {
  /** E.164 digits. */
  phone: text('phone').primaryKey(),
  language: text('language', { enum: CUSTOMER_LANGUAGES }).notNull(),
  source: text('source', { enum: LANGUAGE_SOURCES }).notNull(),
  updatedBy: integer('updated_by').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
