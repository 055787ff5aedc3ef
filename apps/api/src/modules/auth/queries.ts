import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { loginAttempts, sessions, users } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

export async function countRecentFailures(
  db: Queryable,
  by: { email: string } | { ip: string },
  windowMinutes: number,
): Promise<number> {
  const who = 'email' in by ? eq(loginAttempts.email, by.email) : eq(loginAttempts.ip, by.ip);
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginAttempts)
    .where(
      and(
        who,
        eq(loginAttempts.succeeded, false),
        gt(loginAttempts.at, sql`now() - make_interval(mins => ${windowMinutes})`),
      ),
    );
  return row?.n ?? 0;
}

export async function recordAttempt(db: Queryable, email: string, ip: string, succeeded: boolean): Promise<void> {
  await db.insert(loginAttempts).values({ email, ip, succeeded });
}

export async function insertSession(
  db: Queryable,
  s: { userId: number; tokenHash: string; ttlHours: number; ip: string; userAgent: string | null },
): Promise<void> {
  await db.insert(sessions).values({
    userId: s.userId,
    tokenHash: s.tokenHash,
    expiresAt: sql`now() + make_interval(hours => ${s.ttlHours})`,
    ip: s.ip,
    userAgent: s.userAgent,
  });
}

/** The live session of a token hash with its user, or nothing when expired, revoked or trashed. */
export async function findLiveSession(db: Queryable, tokenHash: string) {
  const [row] = await db
    .select({ sessionId: sessions.id, userId: users.id, categoryId: users.categoryId, name: users.name })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        isNull(users.deletedAt),
      ),
    );
  return row;
}

export async function extendSession(db: Queryable, sessionId: number, ttlHours: number): Promise<void> {
  await db
    .update(sessions)
    .set({ expiresAt: sql`now() + make_interval(hours => ${ttlHours})` })
    .where(eq(sessions.id, sessionId));
}

export async function revokeSession(db: Queryable, sessionId: number): Promise<void> {
  await db.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeUserSessions(db: Queryable, userId: number): Promise<void> {
  await db.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function touchLastLogin(db: Queryable, userId: number): Promise<void> {
  await db.update(users).set({ lastLogin: sql`now()` }).where(eq(users.id, userId));
}

export async function setPasswordHash(db: Queryable, userId: number, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.id, userId));
}

/** A user not trashed, by email (stored lower-case, as at sign-in), locked for the password change. */
export async function liveUserByEmail(db: Queryable, email: string): Promise<{ id: number; name: string } | undefined> {
  const [user] = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.email, email.trim().toLowerCase()), isNull(users.deletedAt)))
    .for('update');
  return user;
}
