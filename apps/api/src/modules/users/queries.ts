import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { SessionUser, User } from '@betdesk/contract';
import { ADMIN_CATEGORY_ID } from '@betdesk/contract';
import { sessions, userCategories, users } from '../../db/schema/index.ts';
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
