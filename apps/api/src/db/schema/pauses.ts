import { bigint, check, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { PAUSE_CHANNELS } from '@betdesk/contract';
import { betCategories, tipsSubscribers, TIPS_MEDIA } from './tips-core.ts';
import { subscriptions } from './money.ts';
import { standingOrders } from './auto-renew.ts';

/**
 * A pause of a weekly or monthly tips subscription (decision 090), once per subscription: from
 * `startsAt` to `endsAt` no tips of its category and medium go to the subscriber, its end moved
 * from `expiresBefore` to `expiresAfter`, its standing order's due day with it. The sale after the
 * pause is the subscriber's next subscription of the same category and medium created at or after
 * `endsAt` (`saleAfterPause`).
 */
export const subscriptionPauses = pgTable(
  'subscription_pauses',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: bigint('subscription_id', { mode: 'number' })
      .notNull()
      .references(() => subscriptions.id),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => tipsSubscribers.id),
    betCategoryId: integer('bet_category_id').references(() => betCategories.id),
    medium: text('medium', { enum: TIPS_MEDIA }),
    days: integer('days').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    expiresBefore: timestamp('expires_before', { withTimezone: true }).notNull(),
    expiresAfter: timestamp('expires_after', { withTimezone: true }).notNull(),
    standingOrderId: bigint('standing_order_id', { mode: 'number' }).references(() => standingOrders.id),
    standingOrderNextBefore: date('standing_order_next_before', { mode: 'string' }),
    standingOrderNextAfter: date('standing_order_next_after', { mode: 'string' }),
    via: text('via', { enum: PAUSE_CHANNELS }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('subscription_pauses_days_check', sql`${t.days} > 0`),
    // Once per period: one pause per subscription, however often it is asked for.
    uniqueIndex('subscription_pauses_subscription_key').on(t.subscriptionId),
    index('subscription_pauses_subscriber_idx').on(t.subscriberId, t.endsAt),
    index('subscription_pauses_ends_idx').on(t.endsAt),
  ],
);
