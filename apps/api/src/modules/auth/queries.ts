import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import {
  loginAttempts,
  sessions,
  twoFactorChallenges,
  userSecondFactors,
  users,
} from '../../db/schema/index.ts';
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
    .select({
      sessionId: sessions.id,
      userId: users.id,
      categoryId: users.categoryId,
      name: users.name,
      lastSeenAt: sessions.lastSeenAt,
      lastWriteLsn: sessions.lastWriteLsn,
      hasSecondFactor: sql<boolean>`${userSecondFactors.enabledAt} is not null`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(userSecondFactors, eq(userSecondFactors.userId, users.id))
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

/** Moves the session's last seen time forward; the caller does it at most once a minute. */
/** The session's last write was at or before `lsn` (the primary's WAL position after it, decision 073). */
export async function markSessionWrite(db: Queryable, sessionId: number, lsn: string): Promise<void> {
  await db.update(sessions).set({ lastWriteLsn: lsn }).where(eq(sessions.id, sessionId));
}

export async function touchSession(db: Queryable, sessionId: number): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.id, sessionId));
}

/** The user's live sessions (Signed-in devices), most recently seen first. */
export async function liveSessionsOf(db: Queryable, userId: number) {
  return db
    .select({
      id: sessions.id,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
}

/** Ends one live session of the user; false when it is not theirs or already over. */
export async function revokeOwnSession(db: Queryable, userId: number, sessionId: number): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: sessions.id });
  return rows.length > 0;
}

export async function insertChallenge(
  db: Queryable,
  c: { userId: number; tokenHash: string; ttlMinutes: number },
): Promise<void> {
  await db.insert(twoFactorChallenges).values({
    userId: c.userId,
    tokenHash: c.tokenHash,
    expiresAt: sql`now() + make_interval(mins => ${c.ttlMinutes})`,
  });
}

/** An open challenge (not used, not expired) with its user's email, locked for this try. */
export async function openChallenge(db: Queryable, tokenHash: string) {
  const [row] = await db
    .select({ id: twoFactorChallenges.id, userId: twoFactorChallenges.userId, failures: twoFactorChallenges.failures, email: users.email })
    .from(twoFactorChallenges)
    .innerJoin(users, eq(users.id, twoFactorChallenges.userId))
    .where(
      and(
        eq(twoFactorChallenges.tokenHash, tokenHash),
        isNull(twoFactorChallenges.usedAt),
        gt(twoFactorChallenges.expiresAt, sql`now()`),
        isNull(users.deletedAt),
      ),
    )
    .for('update', { of: twoFactorChallenges });
  return row;
}

export async function countChallengeFailure(db: Queryable, challengeId: number): Promise<void> {
  await db
    .update(twoFactorChallenges)
    .set({ failures: sql`${twoFactorChallenges.failures} + 1` })
    .where(eq(twoFactorChallenges.id, challengeId));
}

/** Closes a challenge; false when another request closed it first. */
export async function closeChallenge(db: Queryable, challengeId: number): Promise<boolean> {
  const rows = await db
    .update(twoFactorChallenges)
    .set({ usedAt: sql`now()` })
    .where(and(eq(twoFactorChallenges.id, challengeId), isNull(twoFactorChallenges.usedAt)))
    .returning({ id: twoFactorChallenges.id });
  return rows.length > 0;
}

/** Challenges are short-lived: those closed or expired for a day are of no further use. */
export async function deleteStaleChallenges(db: Queryable): Promise<void> {
  await db
    .delete(twoFactorChallenges)
    .where(lt(twoFactorChallenges.expiresAt, sql`now() - interval '1 day'`));
}

export async function passwordHashOf(db: Queryable, userId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return row?.passwordHash;
}
