import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { stkRequests } from './mpesa.ts';
import { pricePackages } from './tips-core.ts';

/**
 * What became of a package bought on the USSD menu: `queued` until the job sends the STK push
 * (`sending` while it does), then `requested` (the payment request it made) or `failed`; `expired`
 * when it waited too long for the job; `instructed` when M-Pesa is not configured and the paybill
 * instructions went by SMS instead.
 */
export const USSD_PURCHASE_STATUSES = ['queued', 'sending', 'requested', 'failed', 'expired', 'instructed'] as const;
export type UssdPurchaseStatus = (typeof USSD_PURCHASE_STATUSES)[number];

/** One row per USSD session that confirmed a purchase (Africa's Talking may post the same step twice). */
export const ussdPurchases = pgTable(
  'ussd_purchases',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sessionId: text('session_id').notNull().unique(),
    /** E.164 digits. */
    phone: text('phone').notNull(),
    packageId: integer('package_id')
      .notNull()
      .references(() => pricePackages.id),
    status: text('status', { enum: USSD_PURCHASE_STATUSES }).notNull(),
    stkRequestId: bigint('stk_request_id', { mode: 'number' }).references(() => stkRequests.id),
    /** The promo code typed before the push (capitals), priced again by the job (decision 077). */
    promoCode: text('promo_code'),
    /** The days asked of a daily package (decision 095); null for a package priced for its length. */
    days: integer('days'),
    /** Why it failed or expired, in staff words. */
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('ussd_purchases_queued_idx').on(t.createdAt, t.id).where(sql`${t.status} = 'queued'`),
    check('ussd_purchases_days', sql`${t.days} is null or ${t.days} between 1 and 30`),
  ],
);
