import { verify } from 'otplib';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { decryptSecret } from '../../lib/crypto.ts';
import * as q from './queries.ts';

/**
 * A user's second factor (user_second_factors: the sealed TOTP secret, pending or enabled, the last
 * time step taken; recovery_codes) and the check of a code from their authenticator, which signing in (auth) and the
 * two-person rule's acts (refunds, admin grants) share. Its own module so that those acts need not
 * import auth, which reads users. Its recovery codes are kept here too; enrolment's flow and the sign-in challenge are auth's.
 */

/** One 30-second step either side: a phone clock a little off still works. */
const TOTP_TOLERANCE_SECONDS = 30;

/** TOTP check of a 6-digit code against the sealed secret; the accepted time step, or null. */
export async function acceptedTimeStep(deps: AppDeps, secretSealed: string, code: string): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const secret = decryptSecret(deps.config.secretsKey, secretSealed);
  const result = await verify({ secret, token: code, epochTolerance: TOTP_TOLERANCE_SECONDS });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/**
 * A step-up inside a session (approving a refund): the user's current TOTP code, each 30-second
 * code taken once, in the caller's transaction. Recovery codes are for signing in only.
 * 'none': the user has no second factor on.
 */
export async function acceptStepUpCode(deps: AppDeps, tx: Queryable, userId: number, code: string): Promise<'accepted' | 'wrong' | 'none'> {
  const factor = await q.secondFactorOf(tx, userId);
  if (!factor?.enabledAt) return 'none';
  const step = await acceptedTimeStep(deps, factor.secretSealed, code.trim());
  return step !== null && (await q.takeTimeStep(tx, userId, step)) ? 'accepted' : 'wrong';
}

/** A user's second factor, undefined when none (signing in and enrolment read it too). */
export const secondFactorOf = q.secondFactorOf;
/** Takes a TOTP time step for the user: true once per step, and only forward. */
export const takeTimeStep = q.takeTimeStep;
/** Saves a new pending secret (an enabled factor is never overwritten): false when one is enabled. */
export const savePendingSecret = q.savePendingSecret;
/** Turns a pending secret on: false when there was none pending. */
export const markSecondFactorEnabled = q.markSecondFactorEnabled;
/** Removes the user's second factor: false when there was none. */
export const deleteSecondFactor = q.deleteSecondFactor;
/** Replaces the user's recovery codes with these (hashed). */
export const replaceRecoveryCodes = q.replaceRecoveryCodes;
/** Uses one unused recovery code: true once per code. */
export const useRecoveryCode = q.useRecoveryCode;
/** How many of the user's recovery codes are still unused. */
export const countUnusedRecoveryCodes = q.countUnusedRecoveryCodes;
