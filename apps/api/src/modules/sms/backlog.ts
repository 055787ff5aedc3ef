import { smsResendByCauseTexts, type SmsBacklog } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { conflict } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import * as q from './queries/backlog.ts';

/** Causes listed at most (the dashboard and the log show the biggest). */
const MAX_CAUSES = 20;

/**
 * The gateway backlog: messages being retried after a transient failure, failed messages per cause
 * that were not resent yet, and the refusal (sender id or credentials) whose banner stays up until
 * a message goes out after it. Reads by the partial indexes on queued rows and on failure_cause.
 */
export async function smsBacklog(db: Queryable): Promise<SmsBacklog> {
  const retry = await q.retryingMessages(db);
  const causes = await q.failureCauses(db, MAX_CAUSES);
  return {
    retrying: retry.n,
    oldest_retrying_on: retry.oldest ? new Date(retry.oldest).toISOString() : null,
    causes: causes.map((c) => ({ cause: c.cause, failed: Number(c.failed), retrying: Number(c.retrying) })),
    refusal: await currentRefusal(db),
  };
}

/** The latest sender id or credentials refusal, unless a message was taken by the gateway after it. */
async function currentRefusal(db: Queryable): Promise<SmsBacklog['refusal']> {
  const latest = await q.latestGatewayRefusal(db);
  if (!latest || (await q.sentAfter(db, latest.id))) return null;
  return { cause: latest.cause, reason: latest.reason, at: new Date(latest.at).toISOString() };
}

/**
 * Resends every failed message of one cause in one statement, each once: only messages no one
 * resent yet (the newest of a chain of resends is the one taken), never a temporary password, and
 * never a non-transactional message to a phone that opted out since. Each new row links its
 * original (not its broadcast, whose counts stay per recipient) and continues its dedupe key, so a
 * second click queues nothing.
 */
export async function resendFailedByCause(
  deps: AppDeps,
  actor: Actor,
  cause: string,
  requestId: string,
): Promise<{ info: string; queued: number }> {
  const queued = await deps.db.transaction(async (tx) => {
    const inserted = await q.resendFailedOfCause(tx, cause, actor.userId);
    if (inserted.length > 0) {
      await audit(tx, 'sms.resend-by-cause', null, byStaff(actor, requestId), {
        before: { cause, status: 'failed' },
        after: { queued: inserted.length, first_id: inserted[0]!.id, last_id: inserted.at(-1)!.id },
      });
    }
    return inserted.length;
  });
  if (queued === 0) throw conflict(smsResendByCauseTexts.none, 'nothing_to_resend');
  await deps.jobs.nudge(QUEUES.smsDispatch);
  return { info: smsResendByCauseTexts.queued(queued), queued };
}
