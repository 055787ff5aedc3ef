/**
 * Promo codes (decision 077): a code an admin gives out for chosen packages, and each use of it.
 * Lives in: apps/api/src/db/schema/promo-codes.ts
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { mpesaPayments } from './money.ts';
import { stkRequests } from './mpesa.ts';
import { pricePackages } from './tips-core.ts';
import { users } from './users.ts';

export const PROMO_KINDS = ['percent', 'fixed'] as const;
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promo_codes_code_key').on(t.code),
    check('promo_codes_kind', sql`${t.kind} in ('percent', 'fixed')`),
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
