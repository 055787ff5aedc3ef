import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A sign-in code sent by SMS to a phone (any valid Kenyan number: it need not be a subscriber yet).
 * Only a hash of the code is kept. The rows are also the rate limit's memory: codes asked per phone
 * and per IP in the window are counted here, so every API process sees the same counts.
 */
export const portalCodes = pgTable(
  'portal_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** E.164 digits. */
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    ip: text('ip').notNull(),
    /** Wrong codes tried against it; at the limit it is spent. */
    tries: integer('tries').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('portal_codes_phone_idx').on(t.phone, t.createdAt), index('portal_codes_ip_idx').on(t.ip, t.createdAt)],
);

/** A portal session: its cookie's SHA-256, for a phone. Never a staff session. */
export const portalSessions = pgTable(
  'portal_sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    phone: text('phone').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  // The back office shows a subscriber's last portal sign-in: the newest session of the phone.
  (t) => [index('portal_sessions_phone_idx').on(t.phone, t.createdAt)],
);
