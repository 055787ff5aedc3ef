import Bowser from 'bowser';
import {
  errorTexts,
  roleOf,
  successTexts,
  type Credentials,
  type Device,
  type NewPassword,
  type SessionUser,
  type SignedIn,
  type TwoFactorVerify,
  refusalTexts,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, notFound, tooManyRequests } from '../../http/errors.ts';
import { newToken, sha256Hex } from '../../lib/crypto.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/password.ts';
import { audit, byStaff } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import { sessionUserById, userForSignIn } from '../users/service.ts';
import { secondFactorOf } from '../second-factor/service.ts';
import * as q from './queries.ts';
import {
  clearSecondFactor,
  mustEnrolSecondFactor,
  openSignInChallenge,
  verifySignInChallenge,
} from './two-factor.ts';

export interface RequestOrigin {
  ip: string;
  userAgent: string | null;
}

/**
 * Signs a user in. Failed attempts are counted per email and per IP in the database (so every API
 * process sees the same counts); past the limit the answer is 429 whatever the password. A user
 * with a second factor gets a challenge to answer with a code instead of a session.
 */
export async function signIn(
  deps: AppDeps,
  credentials: Credentials,
  origin: RequestOrigin,
): Promise<SignedIn | { two_factor_required: true; challenge: string }> {
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

  if ((await secondFactorOf(db, user.id))?.enabledAt) {
    return { two_factor_required: true, challenge: await openSignInChallenge(deps, user.id) };
  }
  const token = await db.transaction((tx) => startSession(deps, tx, user.id, origin));
  return { token, user: await sessionUser(deps, user.id) };
}

/** The second step of a sign-in with a second factor: the challenge and a TOTP or recovery code. */
export async function finishSignIn(deps: AppDeps, input: TwoFactorVerify, origin: RequestOrigin): Promise<SignedIn> {
  const { token, userId } = await verifySignInChallenge(deps, input, origin, (tx, id) => startSession(deps, tx, id, origin));
  return { token, user: await sessionUser(deps, userId) };
}

async function startSession(deps: AppDeps, tx: Queryable, userId: number, origin: RequestOrigin): Promise<string> {
  const token = newToken();
  await q.insertSession(tx, {
    userId,
    tokenHash: sha256Hex(token),
    ttlHours: deps.config.sessionTtlHours,
    ip: origin.ip,
    userAgent: origin.userAgent,
  });
  await q.touchLastLogin(tx, userId);
  return token;
}

/** Resolves a bearer token to the actor making the request, or null. */
export async function actorForToken(deps: AppDeps, token: string): Promise<Actor | null> {
  const row = await q.findLiveSession(deps.db, sha256Hex(token));
  if (!row) return null;
  // Last seen (Signed-in devices) to the minute: one write a minute per session, not one per request.
  if (Date.now() - row.lastSeenAt.getTime() > 60_000) await q.touchSession(deps.db, row.sessionId);
  const role = roleOf(row.categoryId);
  return {
    userId: row.userId,
    sessionId: row.sessionId,
    categoryId: row.categoryId,
    role,
    name: row.name,
    mustEnrolSecondFactor: mustEnrolSecondFactor(deps, role, row.hasSecondFactor),
    lastWriteLsn: row.lastWriteLsn,
  };
}

/** A session has just written: its reads stay on the primary until the replica has replayed this far (decision 073). */
export async function noteSessionWrite(deps: AppDeps, sessionId: number, lsn: string): Promise<void> {
  await q.markSessionWrite(deps.db, sessionId, lsn);
}

/** "Chrome 131 on Windows", from the user agent a session signed in with. */
function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const os = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(' ');
  if (!browser && !os) return userAgent.slice(0, 60);
  return [browser || 'Unknown browser', os].filter(Boolean).join(' on ');
}

/** Signed-in devices of My Profile: the user's live sessions, this one marked. */
export async function devicesOf(deps: AppDeps, actor: Actor): Promise<{ items: Device[] }> {
  const rows = await q.liveSessionsOf(deps.db, actor.userId);
  return {
    items: rows.map((r) => ({
      id: r.id,
      device: deviceOf(r.userAgent),
      ip: r.ip,
      signed_in_at: r.createdAt.toISOString(),
      last_seen: r.lastSeenAt.toISOString(),
      current: r.id === actor.sessionId,
    })),
  };
}

/** Ends one of the user's own sessions: that device is signed out at its next request. */
export async function endDevice(deps: AppDeps, actor: Actor, sessionId: number, requestId: string): Promise<{ info: string }> {
  await deps.db.transaction(async (tx) => {
    if (!(await q.revokeOwnSession(tx, actor.userId, sessionId))) {
      throw notFound(refusalTexts.sessionOver);
    }
    await audit(tx, 'user.session-end', actor.userId, byStaff(actor, requestId), { after: { session_id: sessionId } });
  });
  return { info: 'That device is signed out.' };
}

export async function sessionUser(deps: AppDeps, userId: number): Promise<SessionUser> {
  const user = await sessionUserById(deps.db, userId);
  if (!user) throw notFound(refusalTexts.userGone);
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
    await audit(tx, 'user.password-change', actor.userId, byStaff(actor, requestId));
  });
  return { info: successTexts.passwordSaved };
}

/**
 * `npm run reset-password -- --email E --clear-2fa`: a lost authenticator. The second factor and its
 * recovery codes are removed (audited with no actor) and the user's sessions end; the password stays.
 * Null when no live user has the email; `cleared` is false when they had no second factor.
 */
export async function clearSecondFactorByEmail(
  db: AppDeps['db'],
  email: string,
): Promise<{ userId: number; name: string; cleared: boolean } | null> {
  return db.transaction(async (tx) => {
    const user = await q.liveUserByEmail(tx, email);
    if (!user) return null;
    const cleared = await clearSecondFactor(tx, user.id);
    await q.revokeUserSessions(tx, user.id);
    return { userId: user.id, name: user.name, cleared };
  });
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
    await audit(tx, 'user.password-reset', user.id, { actorUserId: null, requestId: 'cli:reset-password' });
    return { userId: user.id, name: user.name };
  });
}

