import { date, pgTable, text, timestamp, integer } from 'drizzle-orm/pg-core';
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

export const AGE_DECLARATION_CHANNELS = ['portal', 'ussd', 'sms'] as const;
export type AgeDeclarationChannel = (typeof AGE_DECLARATION_CHANNELS)[number];

/** A phone's 18+ declaration (decision 060): made once, before its first purchase, on one channel. */
export const ageDeclarations = pgTable('age_declarations', {
  /** E.164 digits. */
  phone: text('phone').primaryKey(),
  channel: text('channel', { enum: AGE_DECLARATION_CHANNELS }).notNull(),
  declaredAt: timestamp('declared_at', { withTimezone: true }).notNull().defaultNow(),
});
