import { and, eq, isNull, sql } from 'drizzle-orm';
import type { SessionUser, User } from '@betdesk/contract';
import { ADMIN_CATEGORY_ID } from '@betdesk/contract';
import { userCategories, users } from '../../db/schema/index.ts';
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

type UserRow = {
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

/**
 * The spec's user object. `total_clients` counts assigned clients; Betdesk has no clients
 * until the Bet4Me domain adds them, so the count is over what exists.
 */
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

/**
 * Clients assigned to a user. Client assignment arrives with the Bet4Me domain (issue 3); until
 * its table exists no user has any client, which is what this says.
 */
export async function countAssignedClients(_db: Queryable, _userId: number): Promise<number> {
  return 0;
}
