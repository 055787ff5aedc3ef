import type { preValidationAsyncHookHandler } from 'fastify';
import { TWO_FACTOR_ENROLMENT_REQUIRED, can, portalTexts, statusTexts, type Endpoint, refusalTexts } from '@betdesk/contract';
import { AppError } from './errors.ts';

/**
 * The one permission guard. The auth hook has already resolved the bearer token to an actor (or
 * none) and the portal cookie to a portal session (or none); this decides, from the matrix in the contract, whether that actor may call the endpoint.
 */
export function requireAccess(access: Endpoint['access']): preValidationAsyncHookHandler {
  return async (request) => {
    if (access === 'public') return;
    // A portal endpoint answers a portal session only: a staff token opens none of them.
    if (access === 'portal') {
      if (!request.portal) throw new AppError(401, portalTexts.signInNeeded);
      return;
    }
    const actor = request.actor;
    if (!actor) throw new AppError(401, statusTexts[401]);
    // Only the user's own account (profile, password, second factor, devices, sign out) stays open.
    if (actor.mustEnrolSecondFactor && access !== 'use:profile') {
      throw new AppError(403, refusalTexts.twoFactorRequired, {
        code: TWO_FACTOR_ENROLMENT_REQUIRED,
      });
    }
    if (!can(actor.role, access)) {
      throw new AppError(403, `${statusTexts[403]} This needs an admin account.`);
    }
  };
}
