import { errorTexts, roleOf, successTexts, type Credentials, type NewPassword, type SessionUser } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, notFound, tooManyRequests } from '../../http/errors.ts';
import { newToken, sha256Hex } from '../../lib/crypto.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/password.ts';
import { audit } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import { sessionUserById, userForSignIn } from '../users/service.ts';
import * as q from './queries.ts';

export interface RequestOrigin {
  ip: string;
  userAgent: string | null;
}

/**
 * Signs a user in. Failed attempts are counted per email and per IP in the database (so every API
 * process sees the same counts); past the limit the answer is 429 whatever the password.
 */
export async function signIn(
  deps: AppDeps,
  credentials: Credentials,
  origin: RequestOrigin,
): Promise<{ token: string; user: SessionUser }> {
  const { db } = deps;
  const email = credentials.email.toLowerCase();
  const windowMinutes = await getSetting(db, 'login_window_minutes');
  const [byEmail, byIp] = await Promise.all([
    q.countRecentFailures(db, { email }, windowMinutes),
    q.countRecentFailures(db, { ip: origin.ip }, windowMinutes),
  ]);
  if (
    byEmail >= (await getSetting(db, 'login_max_failures_per_email')) ||
    byIp >= (await getSetting(db, 'login_max_failures_per_ip'))
  ) {
    throw tooManyRequests(errorTexts.tooManyLoginAttempts);
  }

  const user = await userForSignIn(db, email);
  const valid = user
    ? await verifyPassword(user.passwordHash, credentials.password)
    : await burnPasswordCheck(credentials.password);
  await q.recordAttempt(db, email, origin.ip, valid);
  if (!user || !valid) {
    throw new AppError(422, errorTexts.wrongCredentials, { errors: { email: [errorTexts.wrongCredentials] } });
  }

  const token = newToken();
  await db.transaction(async (tx) => {
    await q.insertSession(tx, {
      userId: user.id,
      tokenHash: sha256Hex(token),
      ttlHours: deps.config.sessionTtlHours,
      ip: origin.ip,
      userAgent: origin.userAgent,
    });
    await q.touchLastLogin(tx, user.id);
  });
  return { token, user: await sessionUser(deps, user.id) };
}

/** Resolves a bearer token to the actor making the request, or null. */
export async function actorForToken(deps: AppDeps, token: string): Promise<Actor | null> {
  const row = await q.findLiveSession(deps.db, sha256Hex(token));
  if (!row) return null;
  return {
    userId: row.userId,
    sessionId: row.sessionId,
    categoryId: row.categoryId,
    role: roleOf(row.categoryId),
    name: row.name,
  };
}

export async function sessionUser(deps: AppDeps, userId: number): Promise<SessionUser> {
  const user = await sessionUserById(deps.db, userId);
  if (!user) throw notFound('This user no longer exists.');
  return user;
}

/** Slides the session's expiry forward and returns the user. */
export async function refreshSession(deps: AppDeps, actor: Actor): Promise<SessionUser> {
  await q.extendSession(deps.db, actor.sessionId, deps.config.sessionTtlHours);
  return sessionUser(deps, actor.userId);
}

export async function signOut(deps: AppDeps, actor: Actor): Promise<void> {
  await q.revokeSession(deps.db, actor.sessionId);
}

/** Sets a new password and revokes every session of the user, this one included. */
export async function changePassword(
  deps: AppDeps,
  actor: Actor,
  input: NewPassword,
  requestId: string,
): Promise<{ info: string }> {
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    await q.setPasswordHash(tx, actor.userId, passwordHash);
    await q.revokeUserSessions(tx, actor.userId);
    await audit(tx, {
      actorUserId: actor.userId,
      action: 'user.password-change',
      entity: 'user',
      entityId: actor.userId,
      requestId,
    });
  });
  return { info: successTexts.passwordSaved };
}

/**
 * `npm run reset-password -- --email E`: a new password for a user found by email (a lost admin
 * password), every session of theirs revoked, audited with no actor. Null when no live user has the email.
 */
export async function resetPasswordByEmail(
  db: AppDeps['db'],
  email: string,
  password: string,
): Promise<{ userId: number; name: string } | null> {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const user = await q.liveUserByEmail(tx, email);
    if (!user) return null;
    await q.setPasswordHash(tx, user.id, passwordHash);
    await q.revokeUserSessions(tx, user.id);
    await audit(tx, {
      actorUserId: null,
      action: 'user.password-reset',
      entity: 'user',
      entityId: user.id,
      requestId: 'cli:reset-password',
    });
    return { userId: user.id, name: user.name };
  });
}
