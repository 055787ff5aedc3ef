import { bigint, boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { sealedText } from './sealed.ts';

export const userCategories = pgTable('user_categories', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** E.164 digits, e.g. 254712345678. */
    phoneNumber: text('phone_number').notNull(),
    /** SHA-256 hex of phone_number, for matching hashed M-Pesa MSISDNs. */
    phoneHash: text('phone_hash').notNull(),
    /** Stored lower-case. */
    email: text('email').notNull(),
    gender: text('gender', { enum: ['male', 'female'] }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => userCategories.id),
    passwordHash: text('password_hash').notNull(),
    photo: text('photo'),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Trashed users keep their row (audit, history) but cannot sign in. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_email_live_key').on(t.email).where(sql`${t.deletedAt} is null`),
    index('users_category_idx').on(t.categoryId),
  ],
);

/**
 * Admin rights, one row each time a user is given them or asks for them (decision 056). Through the
 * web a grant waits (`pending`) until a second admin approves it with their code; the bootstrap
 * admin and `npm run create-user` (the operator on the server) give them at once (`operator`).
 * Who asked and who approved make the chains the two-person rule follows: an admin never approves
 * a refund or a grant of one they come from, or who comes from them.
 */
export const adminGrants = pgTable(
  'admin_grants',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['new_user', 'promotion', 'operator', 'before_grants'] }).notNull(),
    status: text('status', { enum: ['pending', 'approved', 'declined', 'cancelled'] }).notNull(),
    /** The admin who asked; null when the operator or the first boot gave the rights. */
    requestedBy: integer('requested_by').references(() => users.id),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    /** The admin who approved or declined it. */
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** When the rights took effect: the cooling-off period counts from here. */
    effectiveAt: timestamp('effective_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('admin_grants_one_pending_key').on(t.userId).where(sql`${t.status} = 'pending'`),
    index('admin_grants_user_idx').on(t.userId, t.id),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** SHA-256 hex of the bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** Moved forward at most once a minute by the requests of the session (Signed-in devices). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The primary's WAL position after the session's last write: its reads stay there until a replica passes it (decision 073). */
    lastWriteLsn: text('last_write_lsn'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** A user's TOTP second factor. Pending (enabled_at null) from setup until a code confirms it. */
export const userSecondFactors = pgTable('user_second_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  /** The base32 secret sealed with SECRETS_KEY (AES-256-GCM), as the platform passwords are. */
  secretSealed: sealedText('secret_sealed').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The last TOTP time step accepted: a code is taken once (replay), and never an older one. */
  lastTimeStep: bigint('last_time_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** SHA-256 hex of the normalised code (random, 50 bits): the code itself is shown once, never stored. */
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);

/** The second step of a sign-in: the password was right, a code is still owed. */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** SHA-256 hex of the challenge handed to the browser. */
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    failures: integer('failures').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('two_factor_challenges_user_idx').on(t.userId)],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    succeeded: boolean('succeeded').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_attempts_email_at_idx').on(t.email, t.at), index('login_attempts_ip_at_idx').on(t.ip, t.at)],
);
