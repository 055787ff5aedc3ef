import { bigint, boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

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
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
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
