/**
 * Free trials of a package (decision 089): one row per trial taken, written only by modules/trials.
 * `phone_hash` (SHA-256 of the phone) keeps a trial once per phone and package, even after the
 * person is erased; `converted_subscription_id` is the first paid subscription of the trial's bet
 * category and medium bought after it (set by the `subscriptions_convert_trial` trigger).
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { standingOrders } from './auto-renew.ts';
import { subscriptions } from './money.ts';
import { pricePackages, tipsSubscribers } from './tips-core.ts';

export const trialUses = pgTable(
  'trial_uses',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    packageId: integer('package_id')
      .notNull()
      .references(() => pricePackages.id),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => tipsSubscribers.id),
    phoneHash: text('phone_hash').notNull(),
    trialDays: integer('trial_days').notNull(),
    /** The trial's own subscription (source 'trial', amount 0). */
    subscriptionId: bigint('subscription_id', { mode: 'number' })
      .notNull()
      .references(() => subscriptions.id),
    /** The standing order set up with the trial, its first debit the day the trial ends. */
    standingOrderId: bigint('standing_order_id', { mode: 'number' }).references(() => standingOrders.id),
    convertedSubscriptionId: bigint('converted_subscription_id', { mode: 'number' }).references(() => subscriptions.id),
    convertedAt: timestamp('converted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('trial_uses_once_per_phone').on(t.packageId, t.phoneHash),
    index('trial_uses_open_idx').on(t.subscriberId).where(sql`${t.convertedSubscriptionId} is null`),
    index('trial_uses_created_idx').on(t.createdAt),
    index('trial_uses_converted_idx').on(t.convertedAt).where(sql`${t.convertedAt} is not null`),
  ],
);
