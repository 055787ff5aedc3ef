import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { mpesaPayments } from './money.ts';
import { users } from './users.ts';

/**
 * Self-exclusion and the under-18 mark (decision 059, Gambling Control Act 2025). A person is their
 * phone; erasure empties `phone` and keeps `phone_hash` (SHA-256), as erased phones are kept.
 */

/** How long a person excludes themselves: 30, 90 or 180 days, or for good. */
export const EXCLUSION_PERIODS = ['30', '90', '180', 'forever'] as const;
export type ExclusionPeriod = (typeof EXCLUSION_PERIODS)[number];

/** Where the person asked: the USSD menu, the portal, an SMS keyword, or staff on their request. */
export const EXCLUSION_CHANNELS = ['ussd', 'portal', 'sms', 'staff'] as const;
export type ExclusionChannel = (typeof EXCLUSION_CHANNELS)[number];

/**
 * One self-exclusion. Its start, end and period never change and it is never deleted (a trigger of
 * migration 0054 refuses it): nobody ends one early.
 */
export const selfExclusions = pgTable(
  'self_exclusions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** E.164 digits; null once the person was erased. */
    phone: text('phone'),
    phoneHash: text('phone_hash').notNull(),
    period: text('period', { enum: EXCLUSION_PERIODS }).notNull(),
    channel: text('channel', { enum: EXCLUSION_CHANNELS }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    /** Null: for good. */
    endsAt: timestamp('ends_at', { withTimezone: true }),
    recordedBy: integer('recorded_by').references(() => users.id),
    note: text('note'),
    /** When the person was told that it ended (once). */
    endToldAt: timestamp('end_told_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('self_exclusions_phone_hash_idx').on(t.phoneHash, t.endsAt),
    index('self_exclusions_ended_idx').on(t.endsAt).where(sql`${t.endToldAt} is null and ${t.endsAt} is not null`),
  ],
);

/** A person staff marked as under 18: blocked from every sale (setting rg_under_18_block). */
export const under18Marks = pgTable('under_18_marks', {
  phoneHash: text('phone_hash').primaryKey(),
  /** Null once the person was erased. */
  phone: text('phone'),
  note: text('note').notNull(),
  markedBy: integer('marked_by').references(() => users.id),
  markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Why a sale was refused: the payer is self-excluded or marked under 18. */
export const SALE_BLOCKS = ['self_exclusion', 'under_18'] as const;
export type SaleBlock = (typeof SALE_BLOCKS)[number];

/** A sale refused (a payment kept for a refund, or a purchase refused before it was asked), for the safer-gambling report. */
export const refusedSales = pgTable(
  'refused_sales',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => mpesaPayments.id),
    phoneHash: text('phone_hash').notNull(),
    reason: text('reason', { enum: SALE_BLOCKS }).notNull(),
    /** 'payment' (money arrived and was kept), or where a purchase was asked: portal, ussd, sms, staff. */
    channel: text('channel').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('refused_sales_created_idx').on(t.createdAt)],
);
