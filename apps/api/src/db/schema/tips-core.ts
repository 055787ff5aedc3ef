import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** A kind of tip sold, e.g. "Daily 2 Odds" with code D2 (the M-Pesa account number names it). */
export const betCategories = pgTable('bet_categories', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** Upper-case, unique. */
  code: text('code').notNull().unique(),
});

/** People who buy premium tips. */
export const tipsSubscribers = pgTable(
  'tips_subscribers',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** E.164 digits. */
    phone: text('phone').notNull().unique(),
    phoneHash: text('phone_hash').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('tips_subscribers_phone_hash_idx').on(t.phoneHash),
    index('tips_subscribers_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('tips_subscribers_phone_trgm_idx').using('gin', sql`${t.phone} gin_trgm_ops`),
    index('tips_subscribers_joined_idx').on(t.joinedAt),
    index('tips_subscribers_joined_id_idx').on(t.joinedAt, t.id),
    index('tips_subscribers_name_idx').on(t.name, t.id),
  ],
);

export const TIPS_MEDIA = ['sms', 'web'] as const;
export type TipsMedium = (typeof TIPS_MEDIA)[number];
/** How a package is priced (decision 095): for its whole length, or per day. */
export const PACKAGE_BILLINGS = ['period', 'daily'] as const;
export type PackageBilling = (typeof PACKAGE_BILLINGS)[number];

/** A tips price package: bet category x medium x duration, at a price (`bet_category_price_id`). */
export const pricePackages = pgTable(
  'price_packages',
  {
    id: serial('id').primaryKey(),
    betCategoryId: integer('bet_category_id')
      .notNull()
      .references(() => betCategories.id),
    medium: text('medium', { enum: TIPS_MEDIA }).notNull(),
    name: text('name').notNull(),
    durationDays: integer('duration_days').notNull(),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    /** Days of free trial a phone may take once (decision 089); 0: no trial. */
    trialDays: integer('trial_days').notNull().default(0),
    /** The trial is offered only with automatic renewal (a Ratiba standing order) set up. */
    trialNeedsAutoRenew: boolean('trial_needs_auto_renew').notNull().default(false),
    /**
     * 'daily' (decision 095): the price is one day's and the length one day; a purchase buys 1 to 30
     * days at once, days x the price. 'period': the price buys the whole length.
     */
    billing: text('billing', { enum: PACKAGE_BILLINGS }).notNull().default('period'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('price_packages_key').on(t.betCategoryId, t.medium, t.durationDays),
    check('price_packages_trial_days', sql`${t.trialDays} between 0 and 31`),
    check('price_packages_billing', sql`${t.billing} in ('period', 'daily') and (${t.billing} = 'period' or ${t.durationDays} = 1)`),
  ],
);
