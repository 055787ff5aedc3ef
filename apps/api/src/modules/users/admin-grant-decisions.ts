import { adminGrantTexts, type AdminGrant } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, conflict, fieldError, notFound } from '../../http/errors.ts';
import { audit, byStaff } from '../audit/service.ts';
import { acceptStepUpCode } from '../second-factor/service.ts';
import { adminCoolingOffUntil, adminsTied, coolingOffEnd, shownGrant } from './admin-grants.ts';
import { decideAdminGrant, lockAdminGrant, lockLiveUser, makeAdmin } from './queries.ts';

// Approving and declining asked admin rights (decision 056). Apart from the rest of the grants
// because approving asks the auth module for the approver's code, and auth reads users.

/**
 * A second admin gives the asked rights with a fresh code from their authenticator. Refused to the
 * admin who asked, to an admin tied to them, and to one still cooling off; the user must still be
 * there. In one transaction: the grant approved, the user an admin, the step audited.
 */
export async function approveAdminGrant(
  deps: AppDeps,
  actor: Actor,
  id: number,
  code: string,
  requestId: string,
): Promise<{ info: string; grant: AdminGrant }> {
  const outcome = await deps.db.transaction(async (tx) => {
    const grant = await lockAdminGrant(tx, id);
    if (!grant) throw notFound(adminGrantTexts.noSuchGrant);
    if (grant.status !== 'pending') throw conflict(adminGrantTexts.notPending, 'grant_not_pending');
    if (grant.requestedBy === actor.userId) throw new AppError(403, adminGrantTexts.ownRequest, { code: 'own_grant' });
    if (grant.userId === actor.userId || (grant.requestedBy !== null && (await adminsTied(tx, actor.userId, grant.requestedBy)))) {
      throw new AppError(403, adminGrantTexts.tiedToRequester, { code: 'tied_admin' });
    }
    const cooling = await adminCoolingOffUntil(tx, actor.userId);
    if (cooling) throw new AppError(403, adminGrantTexts.coolingOff(coolingOffEnd(cooling)), { code: 'admin_cooling_off' });
    const user = await lockLiveUser(tx, grant.userId);
    if (!user) throw conflict(adminGrantTexts.userGone, 'user_trashed');

    const step = await acceptStepUpCode(deps, tx, actor.userId, code);
    if (step === 'none') throw fieldError('code', adminGrantTexts.noSecondFactor);
    if (step === 'wrong') return { wrongCode: true as const };

    await decideAdminGrant(tx, id, { status: 'approved', decidedBy: actor.userId });
    await makeAdmin(tx, grant.userId);
    await audit(tx, 'admin-grant.approve', id, byStaff(actor, requestId), {
      before: { status: 'pending', category_id: user.categoryId },
      after: { status: 'approved', user_id: grant.userId, requested_by: grant.requestedBy, category_id: 1 },
    });
    return { wrongCode: false as const, name: user.name };
  });
  // Refused outside the transaction so that the code's time step stays taken only when it was right.
  if (outcome.wrongCode) throw fieldError('code', adminGrantTexts.wrongCode);
  return { info: adminGrantTexts.approved(outcome.name), grant: await shownGrant(deps.db, id) };
}

/** Any admin (the one who asked too) declines asked rights: the user stays as they were. */
export async function declineAdminGrant(deps: AppDeps, actor: Actor, id: number, requestId: string): Promise<{ info: string; grant: AdminGrant }> {
  await deps.db.transaction(async (tx) => {
    const grant = await lockAdminGrant(tx, id);
    if (!grant) throw notFound(adminGrantTexts.noSuchGrant);
    if (grant.status !== 'pending') throw conflict(adminGrantTexts.notPending, 'grant_not_pending');
    await decideAdminGrant(tx, id, { status: 'declined', decidedBy: actor.userId });
    await audit(tx, 'admin-grant.decline', id, byStaff(actor, requestId), {
      before: { status: 'pending' },
      after: { status: 'declined', user_id: grant.userId, requested_by: grant.requestedBy },
    });
  });
  return { info: adminGrantTexts.declined, grant: await shownGrant(deps.db, id) };
}

