import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI } from 'otplib';
import {
  RECOVERY_CODE_COUNT,
  errorTexts,
  type Role,
  type TwoFactorPassword,
  type TwoFactorVerify,
  refusalTexts,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, conflict, fieldError, tooManyRequests } from '../../http/errors.ts';
import { encryptSecret, newToken, sha256Hex } from '../../lib/crypto.ts';
import { verifyPassword } from '../../lib/password.ts';
import { audit, byStaff } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import * as secondFactor from '../second-factor/service.ts';
import * as q from './queries.ts';

/** The second step of a sign-in must be finished within this many minutes of the password. */
const CHALLENGE_TTL_MINUTES = 5;
/** Wrong codes one challenge takes before it is closed (the user signs in again with the password). */
const MAX_FAILURES_PER_CHALLENGE = 5;
const ISSUER = 'Betdesk';

const wrongCode = 'This code is not right. Check the time on your phone, or use a recovery code.';
const challengeGone = 'This sign-in has expired. Sign in again with your password.';

/** Recovery codes read like `k7pq-x3mf-2d`: case, spaces and dashes do not matter when typed. */
function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const chars = Array.from(randomBytes(10), (b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

export async function twoFactorStatusOf(deps: AppDeps, actor: Actor) {
  const factor = await secondFactor.secondFactorOf(deps.db, actor.userId);
  const enabled = Boolean(factor?.enabledAt);
  return {
    enabled,
    required: deps.config.requireAdmin2fa && actor.role === 'admin',
    recovery_codes_left: enabled ? await secondFactor.countUnusedRecoveryCodes(deps.db, actor.userId) : 0,
  };
}

/** Whether this actor must enrol a second factor before any other route answers. */
export function mustEnrolSecondFactor(deps: AppDeps, role: Role, hasSecondFactor: boolean): boolean {
  return deps.config.requireAdmin2fa && role === 'admin' && !hasSecondFactor;
}

/** Enrolment, step one: a fresh secret, kept pending (sealed) until a code confirms it. */
export async function setUpSecondFactor(
  deps: AppDeps,
  actor: Actor,
  email: string,
): Promise<{ secret: string; otpauth_url: string }> {
  const secret = generateSecret();
  const saved = await secondFactor.savePendingSecret(deps.db, actor.userId, encryptSecret(deps.config.secretsKey, secret));
  if (!saved) throw conflict(refusalTexts.twoFactorAlreadyOnEnrol, 'two_factor_enabled');
  return { secret, otpauth_url: generateURI({ issuer: ISSUER, label: email, secret }) };
}

/** Enrolment, step two: a code from the app turns the factor on and answers the recovery codes, once. */
export async function enableSecondFactor(
  deps: AppDeps,
  actor: Actor,
  code: string,
  requestId: string,
): Promise<{ recovery_codes: string[] }> {
  const factor = await secondFactor.secondFactorOf(deps.db, actor.userId);
  if (!factor) throw conflict(refusalTexts.twoFactorNotStarted, 'two_factor_not_set_up');
  if (factor.enabledAt) throw conflict(refusalTexts.twoFactorAlreadyOn, 'two_factor_enabled');
  const step = await secondFactor.acceptedTimeStep(deps, factor.secretSealed, code);
  if (step === null) throw fieldError('code', wrongCode);

  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const enabled = await deps.db.transaction(async (tx) => {
    if (!(await secondFactor.markSecondFactorEnabled(tx, actor.userId))) return false;
    await secondFactor.takeTimeStep(tx, actor.userId, step);
    await secondFactor.replaceRecoveryCodes(tx, actor.userId, codes.map((c) => sha256Hex(normaliseRecoveryCode(c))));
    await audit(tx, 'user.2fa-enable', actor.userId, byStaff(actor, requestId));
    return true;
  });
  if (!enabled) throw conflict(refusalTexts.twoFactorAlreadyOn, 'two_factor_enabled');
  return { recovery_codes: codes };
}

export async function disableSecondFactor(
  deps: AppDeps,
  actor: Actor,
  input: TwoFactorPassword,
  requestId: string,
): Promise<{ info: string }> {
  const passwordHash = await q.passwordHashOf(deps.db, actor.userId);
  if (!passwordHash || !(await verifyPassword(passwordHash, input.password))) {
    throw fieldError('password', refusalTexts.passwordWrong);
  }
  await deps.db.transaction(async (tx) => {
    if (await secondFactor.deleteSecondFactor(tx, actor.userId)) {
      await audit(tx, 'user.2fa-disable', actor.userId, byStaff(actor, requestId));
    }
  });
  return { info: 'Two-factor sign-in is off.' };
}

/** Clears a lost second factor (`npm run reset-password -- --clear-2fa`), in the caller's transaction. */
export async function clearSecondFactor(tx: Queryable, userId: number): Promise<boolean> {
  const cleared = await secondFactor.deleteSecondFactor(tx, userId);
  if (cleared) {
    await audit(tx, 'user.2fa-clear', userId, { actorUserId: null, requestId: 'cli:reset-password' });
  }
  return cleared;
}

/** After a right password: a short-lived challenge the browser answers with a code. */
export async function openSignInChallenge(deps: AppDeps, userId: number): Promise<string> {
  const challenge = newToken();
  await q.deleteStaleChallenges(deps.db);
  await q.insertChallenge(deps.db, { userId, tokenHash: sha256Hex(challenge), ttlMinutes: CHALLENGE_TTL_MINUTES });
  return challenge;
}

type Outcome =
  | { kind: 'signed-in'; userId: number; usedRecoveryCode: boolean }
  | { kind: 'gone' }
  | { kind: 'limited' }
  | { kind: 'wrong' };

/**
 * The second step of a sign-in. Wrong codes count against the challenge (5, then it closes) and
 * in the sign-in limiter (per email and per IP, the login's settings), so guessing codes is no
 * faster than guessing passwords. Failures are written in their own transaction, kept when the
 * answer is a refusal.
 */
export async function verifySignInChallenge(
  deps: AppDeps,
  input: TwoFactorVerify,
  origin: { ip: string; userAgent: string | null },
  startSession: (tx: Queryable, userId: number) => Promise<string>,
): Promise<{ token: string; userId: number }> {
  let token = '';
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const challenge = await q.openChallenge(tx, sha256Hex(input.challenge));
    if (!challenge) return { kind: 'gone' };
    const windowMinutes = await getSetting(tx, 'login_window_minutes');
    const byEmail = await q.countRecentFailures(tx, { email: challenge.email }, windowMinutes);
    const byIp = await q.countRecentFailures(tx, { ip: origin.ip }, windowMinutes);
    if (
      challenge.failures >= MAX_FAILURES_PER_CHALLENGE ||
      byEmail >= (await getSetting(tx, 'login_max_failures_per_email')) ||
      byIp >= (await getSetting(tx, 'login_max_failures_per_ip'))
    ) {
      return { kind: 'limited' };
    }

    const factor = await secondFactor.secondFactorOf(tx, challenge.userId);
    if (!factor?.enabledAt) return { kind: 'gone' };
    const step = await secondFactor.acceptedTimeStep(deps, factor.secretSealed, input.code);
    let accepted = step !== null && (await secondFactor.takeTimeStep(tx, challenge.userId, step));
    let usedRecoveryCode = false;
    if (!accepted && step === null) {
      usedRecoveryCode = await secondFactor.useRecoveryCode(tx, challenge.userId, sha256Hex(normaliseRecoveryCode(input.code)));
      accepted = usedRecoveryCode;
    }
    await q.recordAttempt(tx, challenge.email, origin.ip, accepted);
    if (!accepted) {
      await q.countChallengeFailure(tx, challenge.id);
      return { kind: 'wrong' };
    }
    await q.closeChallenge(tx, challenge.id);
    token = await startSession(tx, challenge.userId);
    if (usedRecoveryCode) {
      await audit(tx, 'user.2fa-recovery-code', challenge.userId, { actorUserId: challenge.userId }, {
        after: { codes_left: await secondFactor.countUnusedRecoveryCodes(tx, challenge.userId) },
      });
    }
    return { kind: 'signed-in', userId: challenge.userId, usedRecoveryCode };
  });

  switch (outcome.kind) {
    case 'gone':
      throw new AppError(422, challengeGone, { errors: { challenge: [challengeGone] }, code: 'two_factor_challenge_expired' });
    case 'limited':
      throw tooManyRequests(errorTexts.tooManyLoginAttempts);
    case 'wrong':
      throw fieldError('code', wrongCode);
    case 'signed-in':
      return { token, userId: outcome.userId };
  }
}
