/**
 * Promo codes (decision 077): a code an admin gives out for chosen packages, and each use of it.
 * A referral code (decision 088) is a code of kind 'referral' owned by a subscriber or an agent.
 * Lives in: apps/api/src/db/schema/promo-codes.ts
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { mpesaPayments, subscriptions } from './money.ts';
import { stkRequests } from './mpesa.ts';
import { pricePackages, tipsSubscribers } from './tips-core.ts';
import { users } from './users.ts';

export const PROMO_KINDS = ['percent', 'fixed', 'referral'] as const;
export const PROMO_USE_STATUSES = ['held', 'used', 'released'] as const;
export const PROMO_CHANNELS = ['portal', 'ussd', 'paybill'] as const;

/** A code (stored in capitals: codes are case-insensitive), what it takes off, when and how often. */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    kind: text('kind', { enum: PROMO_KINDS }).notNull(),
    percentOff: integer('percent_off'),
    amountOffCents: bigint('amount_off_cents', { mode: 'number' }),
    packageIds: integer('package_ids').array().notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** Null: no cap. */
    maxUses: integer('max_uses'),
    /** Uses held or made; moved only by the counted update that checks the cap. */
    uses: integer('uses').notNull().default(0),
    onePerPhone: boolean('one_per_phone').notNull().default(true),
    firstPurchaseOnly: boolean('first_purchase_only').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id),
    /** A referral code's owner (decision 088): a subscriber or an agent, exactly one. */
    referrerSubscriberId: integer('referrer_subscriber_id').references(() => tipsSubscribers.id),
    referrerAgentId: integer('referrer_agent_id').references((): AnyPgColumn => agents.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promo_codes_code_key').on(t.code),
    check('promo_codes_kind', sql`${t.kind} in ('percent', 'fixed', 'referral')`),
    check('promo_codes_referrer', sql`(${t.kind} = 'referral') = ((${t.referrerSubscriberId} is not null) <> (${t.referrerAgentId} is not null))`),
    uniqueIndex('promo_codes_subscriber_key').on(t.referrerSubscriberId).where(sql`${t.referrerSubscriberId} is not null`),
    uniqueIndex('promo_codes_agent_key').on(t.referrerAgentId).where(sql`${t.referrerAgentId} is not null`),
    check('promo_codes_uses_capped', sql`${t.maxUses} is null or ${t.uses} <= ${t.maxUses}`),
  ],
);

/**
 * One use of a code: held while its STK push waits, used by the sale it made, released when the
 * push ends unpaid. `phone_key` is the phone for a one-per-phone code (else null), so the unique
 * index (code_id, phone_key) allows one live use per phone; a released use clears it.
 */
export const promoCodeUses = pgTable(
  'promo_code_uses',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    codeId: integer('code_id')
      .notNull()
      .references(() => promoCodes.id),
    phone: text('phone').notNull(),
    phoneKey: text('phone_key'),
    packageId: integer('package_id')
      .notNull()
      .references(() => pricePackages.id),
    channel: text('channel', { enum: PROMO_CHANNELS }).notNull(),
    listPriceCents: bigint('list_price_cents', { mode: 'number' }).notNull(),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull(),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    status: text('status', { enum: PROMO_USE_STATUSES }).notNull().default('held'),
    stkRequestId: bigint('stk_request_id', { mode: 'number' }).references(() => stkRequests.id),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => mpesaPayments.id),
    subscriptionId: bigint('subscription_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('promo_code_uses_one_per_phone').on(t.codeId, t.phoneKey),
    index('promo_code_uses_stk_idx').on(t.stkRequestId).where(sql`${t.stkRequestId} is not null`),
    index('promo_code_uses_used_idx').on(t.usedAt).where(sql`${t.status} = 'used'`),
  ],
);

/** A person the business registers to bring buyers (decision 088): their referral code is a promo code. */
export const agents = pgTable(
  'agents',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('agents_phone_key').on(t.phone)],
);

export const REFERRAL_REWARD_OUTCOMES = ['granted', 'refunded', 'suppressed', 'self_referral'] as const;

/**
 * What became of a subscriber's referral (decision 088), once: free days granted after the hold,
 * none because the referee's payment was refunded, or none because the referrer is self-excluded
 * or erased. The unique index on the use makes the reward happen at most once.
 */
export const referralRewards = pgTable(
  'referral_rewards',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    useId: bigint('use_id', { mode: 'number' })
      .notNull()
      .references(() => promoCodeUses.id),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => tipsSubscribers.id),
    outcome: text('outcome', { enum: REFERRAL_REWARD_OUTCOMES }).notNull(),
    days: integer('days').notNull(),
    subscriptionId: bigint('subscription_id', { mode: 'number' }).references(() => subscriptions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('referral_rewards_use_key').on(t.useId), check('referral_rewards_outcome', sql`${t.outcome} in ('granted', 'refunded', 'suppressed', 'self_referral')`)],
);

export const AGENT_COMMISSION_KINDS = ['commission', 'clawback'] as const;

/**
 * An agent's commission ledger (decision 088): one commission per referee payment within the
 * months, at the percent of when it was written; one clawback (negative) when that payment is
 * refunded after, in the month the refund was seen. A statement sums a month's rows.
 */
export const agentCommissions = pgTable(
  'agent_commissions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    agentId: integer('agent_id')
      .notNull()
      .references(() => agents.id),
    useId: bigint('use_id', { mode: 'number' })
      .notNull()
      .references(() => promoCodeUses.id),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => mpesaPayments.id),
    kind: text('kind', { enum: AGENT_COMMISSION_KINDS }).notNull(),
    month: text('month').notNull(),
    paymentCents: bigint('payment_cents', { mode: 'number' }).notNull(),
    percent: integer('percent').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('agent_commissions_payment_kind_key').on(t.paymentId, t.kind),
    index('agent_commissions_agent_month_idx').on(t.agentId, t.month),
    check('agent_commissions_kind', sql`${t.kind} in ('commission', 'clawback')`),
    check('agent_commissions_sign', sql`(${t.kind} = 'commission' and ${t.amountCents} >= 0) or (${t.kind} = 'clawback' and ${t.amountCents} <= 0)`),
  ],
);
