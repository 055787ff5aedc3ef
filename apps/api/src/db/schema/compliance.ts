import { sql } from 'drizzle-orm';
import { bigint, date, index, pgTable, text, timestamp, integer } from 'drizzle-orm/pg-core';
import { mpesaPayments } from './money.ts';
import { users } from './users.ts';

/**
 * The compliance calendar (decision 060): one row per item an admin has recorded, under its key
 * (`odpc_registration`, `dpo`, `paybill_name`, `counsel_tips`, `counsel_bet4me`,
 * `sender_id.<SENDER>.<operator>`). An item without a row is missing.
 */
export const complianceItems = pgTable('compliance_items', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  /** Issued, appointed, registered or given on (a Nairobi day). */
  issuedOn: date('issued_on', { mode: 'string' }),
  /** The end an admin entered; the ODPC certificate's is worked out from `issued_on` instead. */
  expiresOn: date('expires_on', { mode: 'string' }),
  note: text('note'),
  updatedBy: integer('updated_by').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * How the declaration was made: a tick, a confirm screen, a reply of 18, or `before_gate`: the phone
 * had bought tips before the gate existed and migration 0058 counted it as declared (decision 066).
 */
export const AGE_DECLARATION_CHANNELS = ['portal', 'ussd', 'sms', 'before_gate'] as const;
export type AgeDeclarationChannel = (typeof AGE_DECLARATION_CHANNELS)[number];

/** A phone's 18+ declaration (decision 060): made once, before its first purchase, on one channel. */
export const ageDeclarations = pgTable('age_declarations', {
  /** E.164 digits. */
  phone: text('phone').primaryKey(),
  channel: text('channel', { enum: AGE_DECLARATION_CHANNELS }).notNull(),
  declaredAt: timestamp('declared_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A paybill payment from a phone that had not declared it is 18 or older (decision 066): kept
 * unclaimed until the phone replies 18 within `age_declaration_grace_hours` (then sold, `sold_at`),
 * else listed for an admin to refund.
 */
export const ageHeldPayments = pgTable(
  'age_held_payments',
  {
    paymentId: bigint('payment_id', { mode: 'number' })
      .primaryKey()
      .references(() => mpesaPayments.id),
    /** The phone asked to reply (E.164 digits). */
    phone: text('phone').notNull(),
    heldAt: timestamp('held_at', { withTimezone: true }).notNull().defaultNow(),
    soldAt: timestamp('sold_at', { withTimezone: true }),
    /** The reply 18 came but the payment stays kept for its refund: after the grace, or the payer is blocked since. */
    unsoldAt: timestamp('unsold_at', { withTimezone: true }),
  },
  (t) => [index('age_held_payments_phone_idx').on(t.phone).where(sql`sold_at is null and unsold_at is null`)],
);
