import { and, asc, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { SessionUser, User } from '@betdesk/contract';
import { ADMIN_CATEGORY_ID } from '@betdesk/contract';
import { adminGrants, sessions, userCategories, users } from '../../db/schema/index.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import type { Queryable } from '../../db/client.ts';

const userColumns = {
  id: users.id,
  name: users.name,
  phoneNumber: users.phoneNumber,
  email: users.email,
  gender: users.gender,
  categoryId: users.categoryId,
  categoryName: userCategories.name,
  lastLogin: users.lastLogin,
  photo: users.photo,
};

export type UserRow = {
  id: number;
  name: string;
  phoneNumber: string;
  email: string;
  gender: 'male' | 'female' | null;
  categoryId: number;
  categoryName: string;
  lastLogin: Date | null;
  photo: string | null;
};

/** The spec's user object; `total_clients` counts the clients assigned to the user. */
export function toUser(row: UserRow, totalClients: number): User {
  return {
    id: row.id,
    user_id: row.id,
    name: row.name,
    phone_number: row.phoneNumber,
    email: row.email,
    gender: row.gender,
    category_id: row.categoryId,
    category_name: row.categoryName,
    total_clients: totalClients,
    last_login: row.lastLogin ? row.lastLogin.toISOString() : null,
    photo: row.photo,
  };
}

export function toSessionUser(row: UserRow, totalClients: number): SessionUser {
  return { ...toUser(row, totalClients), is_admin: row.categoryId === ADMIN_CATEGORY_ID };
}

export async function findLiveUserById(db: Queryable, id: number): Promise<UserRow | undefined> {
  const [row] = await db
    .select(userColumns)
    .from(users)
    .innerJoin(userCategories, eq(userCategories.id, users.categoryId))
    .where(and(eq(users.id, id), isNull(users.deletedAt)));
  return row;
}

export async function findLiveUserByEmail(db: Queryable, email: string) {
  const [row] = await db
    .select({ ...userColumns, passwordHash: users.passwordHash })
    .from(users)
    .innerJoin(userCategories, eq(userCategories.id, users.categoryId))
    .where(and(eq(users.email, email.toLowerCase()), isNull(users.deletedAt)));
  return row;
}

export async function countLiveUsers(db: Queryable): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(isNull(users.deletedAt));
  return row?.n ?? 0;
}

/** Every live user, by name (the Users table). */
export async function findLiveUsers(db: Queryable): Promise<UserRow[]> {
  return db
    .select(userColumns)
    .from(users)
    .innerJoin(userCategories, eq(userCategories.id, users.categoryId))
    .where(isNull(users.deletedAt))
    .orderBy(asc(users.name), asc(users.id));
}

export function findCategories(db: Queryable) {
  return db.select({ id: userCategories.id, name: userCategories.name }).from(userCategories).orderBy(userCategories.id);
}

/**
 * Locks every live admin (in id order, so two callers never deadlock) and returns how many there
 * are. Deleting or demoting an admin takes these locks before counting: two admins removing each
 * other at the same time then count one after the other, and the second sees one admin left.
 */
export async function lockLiveAdmins(db: Queryable): Promise<number> {
  const locked = await db
    .select({ id: users.id })
    .from(users)
    .where(and(isNull(users.deletedAt), eq(users.categoryId, ADMIN_CATEGORY_ID)))
    .orderBy(users.id)
    .for('update');
  return locked.length;
}

/** The live user with a row lock (update, delete). */
export async function lockLiveUser(db: Queryable, id: number) {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      phoneNumber: users.phoneNumber,
      gender: users.gender,
      categoryId: users.categoryId,
    })
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .for('update');
  return row;
}

export async function updateUser(
  db: Queryable,
  id: number,
  facts: { name: string; email: string; phoneNumber: string; gender: 'male' | 'female' | null; categoryId: number },
): Promise<void> {
  await db
    .update(users)
    .set({ ...facts, phoneHash: sha256Hex(facts.phoneNumber), updatedAt: sql`now()` })
    .where(eq(users.id, id));
}

/** Trashes the user and revokes every session they hold. */
export async function trashUser(db: Queryable, id: number): Promise<void> {
  await db.update(users).set({ deletedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(users.id, id));
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
}

export async function insertUser(db: Queryable, user: typeof users.$inferInsert): Promise<number> {
  const [row] = await db.insert(users).values(user).returning({ id: users.id });
  return row!.id;
}

// ---- Admin grants (decision 056) -----------------------------------------------------------

export type AdminGrantRow = typeof adminGrants.$inferSelect;

export async function insertAdminGrant(db: Queryable, grant: typeof adminGrants.$inferInsert): Promise<number> {
  const [row] = await db.insert(adminGrants).values(grant).returning({ id: adminGrants.id });
  return row!.id;
}

/** The user's grant still waiting, if any (one at most: admin_grants_one_pending_key). */
export async function findPendingGrantOf(db: Queryable, userId: number): Promise<AdminGrantRow | undefined> {
  const [row] = await db.select().from(adminGrants).where(and(eq(adminGrants.userId, userId), eq(adminGrants.status, 'pending')));
  return row;
}

export async function lockAdminGrant(db: Queryable, id: number): Promise<AdminGrantRow | undefined> {
  const [row] = await db.select().from(adminGrants).where(eq(adminGrants.id, id)).for('update');
  return row;
}

export async function decideAdminGrant(
  db: Queryable,
  id: number,
  decision: { status: 'approved' | 'declined' | 'cancelled'; decidedBy: number | null },
): Promise<void> {
  await db
    .update(adminGrants)
    .set({
      status: decision.status,
      decidedBy: decision.decidedBy,
      decidedAt: sql`now()`,
      ...(decision.status === 'approved' ? { effectiveAt: sql`now()` } : {}),
    })
    .where(eq(adminGrants.id, id));
}

/** Cancels what a trashed user was still waiting for. */
export async function cancelPendingGrantsOf(db: Queryable, userId: number): Promise<number[]> {
  const found = await db
    .update(adminGrants)
    .set({ status: 'cancelled', decidedAt: sql`now()` })
    .where(and(eq(adminGrants.userId, userId), eq(adminGrants.status, 'pending')))
    .returning({ id: adminGrants.id });
  return found.map((r) => r.id);
}

/** Moves a user to admin once a grant is approved. */
export async function makeAdmin(db: Queryable, userId: number): Promise<void> {
  await db.update(users).set({ categoryId: ADMIN_CATEGORY_ID, updatedAt: sql`now()` }).where(eq(users.id, userId));
}

/**
 * Who asked for and who approved every admin right ever given (not the pending, declined or
 * cancelled): the edges the two-person rule follows. A few rows, one per admin ever made.
 */
export function givenGrantEdges(db: Queryable): Promise<{ userId: number; requestedBy: number | null; decidedBy: number | null }[]> {
  return db
    .select({ userId: adminGrants.userId, requestedBy: adminGrants.requestedBy, decidedBy: adminGrants.decidedBy })
    .from(adminGrants)
    .where(eq(adminGrants.status, 'approved'));
}

/**
 * The user's latest given grant, when it was asked in the web and took effect within the cooling-off
 * days (by the database's clock), with the instant the period ends.
 */
export async function coolingOffUntil(db: Queryable, userId: number, days: number): Promise<Date | null> {
  const [latest] = await db
    .select({ kind: adminGrants.kind, until: sql<Date | string>`${adminGrants.effectiveAt} + make_interval(days => ${days}::int)`, cooling: sql<boolean>`${adminGrants.effectiveAt} + make_interval(days => ${days}::int) > now()` })
    .from(adminGrants)
    .where(and(eq(adminGrants.userId, userId), eq(adminGrants.status, 'approved')))
    .orderBy(desc(adminGrants.id))
    .limit(1);
  if (!latest || !latest.cooling || (latest.kind !== 'new_user' && latest.kind !== 'promotion')) return null;
  return new Date(latest.until);
}

const requester = alias(users, 'requester');
const decider = alias(users, 'decider');

/** Grants with the names the screens show: the pending ones, or those decided since `since`. */
export function adminGrantsWithNames(db: Queryable, filter: { pending: true } | { decidedSince: Date } | { id: number }) {
  const where =
    'pending' in filter
      ? and(eq(adminGrants.status, 'pending'), isNull(users.deletedAt))
      : 'id' in filter
        ? eq(adminGrants.id, filter.id)
        : and(inArray(adminGrants.kind, ['new_user', 'promotion']), sql`${adminGrants.status} <> 'pending'`, gte(adminGrants.decidedAt, filter.decidedSince));
  return db
    .select({
      id: adminGrants.id,
      userId: adminGrants.userId,
      userName: users.name,
      userEmail: users.email,
      userPhone: users.phoneNumber,
      kind: adminGrants.kind,
      status: adminGrants.status,
      requestedById: adminGrants.requestedBy,
      requestedBy: requester.name,
      requestedAt: adminGrants.requestedAt,
      decidedBy: decider.name,
      decidedAt: adminGrants.decidedAt,
    })
    .from(adminGrants)
    .innerJoin(users, eq(users.id, adminGrants.userId))
    .leftJoin(requester, eq(requester.id, adminGrants.requestedBy))
    .leftJoin(decider, eq(decider.id, adminGrants.decidedBy))
    .where(where)
    .orderBy(desc(adminGrants.id));
}

/** How many grants wait, and how many steps each kind of step took: the metrics and their alerts. */
export async function adminGrantCounts(db: Queryable): Promise<{ status: string; n: number }[]> {
  return db
    .select({ status: adminGrants.status, n: sql<number>`count(*)::int` })
    .from(adminGrants)
    .where(inArray(adminGrants.kind, ['new_user', 'promotion']))
    .groupBy(adminGrants.status);
}
