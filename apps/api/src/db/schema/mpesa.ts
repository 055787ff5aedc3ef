import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { bet4mePlans, clients } from './clients.ts';
import { pricePackages, tipsSubscribers } from './tips-core.ts';
import { mpesaPayments } from './money.ts';

/** What a "Request payment" (STK push) asks the payer to pay for. */
export const STK_PURPOSES = ['package', 'plan', 'bonus'] as const;
/** pending until the callback (or an STK query) says how it ended. */
export const STK_STATUSES = ['pending', 'paid', 'cancelled', 'failed'] as const;
/**
 * Where the push was asked: staff's "Request payment", the subscriber portal, the USSD menu, or a
 * texted category code (SMS keyword). A recovery retry keeps the failed request's origin.
 */
export const STK_ORIGINS = ['staff', 'portal', 'ussd', 'sms'] as const;
export type StkOrigin = (typeof STK_ORIGINS)[number];

/**
 * An STK push sent to a payer's phone. The callback (or a later STK query) settles it; a paid one
 * points at the payment its receipt was stored as.
 */
export const stkRequests = pgTable(
  'stk_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    merchantRequestId: text('merchant_request_id'),
    /** Daraja's id of the push; null only while the push is being sent. */
    checkoutRequestId: text('checkout_request_id').unique(),
    purpose: text('purpose', { enum: STK_PURPOSES }).notNull(),
    clientId: integer('client_id').references(() => clients.id),
    subscriberId: integer('subscriber_id').references(() => tipsSubscribers.id),
    packageId: integer('package_id').references(() => pricePackages.id),
    planId: integer('plan_id').references(() => bet4mePlans.id),
    /** E.164 digits. */
    phone: text('phone').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** The days asked of a daily package (decision 095); null otherwise. */
    days: integer('days'),
    accountReference: text('account_reference').notNull(),
    status: text('status', { enum: STK_STATUSES }).notNull().default('pending'),
    /** Daraja's ResultCode as text (0 paid, 1032 cancelled, 1037 unreachable ...). */
    resultCode: text('result_code'),
    resultDesc: text('result_desc'),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => mpesaPayments.id),
    requestedBy: integer('requested_by').references(() => users.id),
    /** Null only on pushes sent before origins were kept (migration 0040) by no staff member. */
    origin: text('origin', { enum: STK_ORIGINS }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    queriedAt: timestamp('queried_at', { withTimezone: true }),
    queryAttempts: integer('query_attempts').notNull().default(0),
  },
  (t) => [
    check('stk_requests_one_subject', sql`(${t.clientId} is null) <> (${t.subscriberId} is null)`),
    check('stk_requests_days', sql`${t.days} is null or ${t.days} between 1 and 30`),
    index('stk_requests_status_idx').on(t.status, t.requestedAt),
    index('stk_requests_client_idx').on(t.clientId, t.requestedAt),
    index('stk_requests_subscriber_idx').on(t.subscriberId, t.requestedAt),
    index('stk_requests_payment_idx').on(t.paymentId).where(sql`${t.paymentId} is not null`),
  ],
);
