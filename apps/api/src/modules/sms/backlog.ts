import { sql } from 'drizzle-orm';
import {
  SMS_GATEWAY_REFUSALS,
  SMS_NOT_RESENDABLE_INTENTS,
  smsResendByCauseTexts,
  type SmsBacklog,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { conflict } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit } from '../audit/service.ts';
import { optedOutSql } from './opt-outs.ts';

/** Causes listed at most (the dashboard and the log show the biggest). */
const MAX_CAUSES = 20;

/**
 * The gateway backlog: messages being retried after a transient failure, failed messages per cause
 * that were not resent yet, and the refusal (sender id or credentials) whose banner stays up until
 * a message goes out after it. Reads by the partial indexes on queued rows and on failure_cause.
 */
export async function smsBacklog(db: Queryable): Promise<SmsBacklog> {
  const [retry] = await rows<{ n: number; oldest: string | null }>(
    db,
    sql`select count(*)::int as n, min(created_at) as oldest
          from sms_messages where status = 'queued' and attempts > 0`,
  );
  const causes = await rows<{ cause: string; failed: number; retrying: number }>(
    db,
    sql`select failure_cause as cause,
               count(*) filter (where status = 'failed'
                                  and not exists (select 1 from sms_messages r where r.resent_from_id = m.id))::int as failed,
               count(*) filter (where status = 'queued')::int as retrying
          from sms_messages m
         where failure_cause is not null and status in ('failed', 'queued')
         group by failure_cause
        having count(*) filter (where status = 'queued') > 0
            or count(*) filter (where status = 'failed'
                                  and not exists (select 1 from sms_messages r where r.resent_from_id = m.id)) > 0
         order by count(*) desc, failure_cause
         limit ${MAX_CAUSES}`,
  );
  return {
    retrying: Number(retry?.n ?? 0),
    oldest_retrying_on: retry?.oldest ? new Date(retry.oldest).toISOString() : null,
    causes: causes.map((c) => ({ cause: c.cause, failed: Number(c.failed), retrying: Number(c.retrying) })),
    refusal: await currentRefusal(db),
  };
}

/** The latest sender id or credentials refusal, unless a message was taken by the gateway after it. */
async function currentRefusal(db: Queryable): Promise<SmsBacklog['refusal']> {
  const causes = sql.join(SMS_GATEWAY_REFUSALS.map((c) => sql`${c}`), sql`, `);
  const [latest] = await rows<{ id: number; cause: (typeof SMS_GATEWAY_REFUSALS)[number]; reason: string | null; at: string }>(
    db,
    sql`select id, failure_cause as cause, failure_reason as reason, updated_at as at
          from sms_messages where failure_cause in (${causes}) and status = 'failed'
         order by id desc limit 1`,
  );
  if (!latest) return null;
  const [later] = await rows<{ id: number }>(
    db,
    sql`select id from sms_messages where status in ('sent', 'delivered') and id > ${latest.id} limit 1`,
  );
  if (later) return null;
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
    const inserted = await rows<{ id: number; resent_from_id: number }>(
      tx,
      sql`insert into sms_messages (intent, dedupe_key, recipient, body, parts, priority, client_id, subscriber_id,
                                    created_by, resent_from_id, sms_class, broadcast_id)
          select f.intent,
                 -- never resent before (see below), so this is its first resend
                 f.dedupe_key || ':resend:1',
                 f.recipient, f.body, f.parts, f.priority, f.client_id, f.subscriber_id,
                 ${actor.userId}, f.id, f.sms_class, null
            from sms_messages f
           where f.status = 'failed' and f.failure_cause = ${cause}
             and f.intent <> all(${`{${SMS_NOT_RESENDABLE_INTENTS.join(',')}}`}::text[])
             and not exists (select 1 from sms_messages r where r.resent_from_id = f.id)
             and (f.sms_class = 'transactional' or not ${optedOutSql(sql`f.recipient`, null)})
             and (f.sms_class <> 'promotional' or not ${optedOutSql(sql`f.recipient`, null, true)})
           order by f.id
          on conflict (dedupe_key) do nothing
          returning id, resent_from_id`,
    );
    if (inserted.length > 0) {
      await audit(tx, {
        actorUserId: actor.userId,
        action: 'sms.resend-by-cause',
        entity: 'sms_message',
        entityId: null,
        before: { cause, status: 'failed' },
        after: { queued: inserted.length, first_id: inserted[0]!.id, last_id: inserted.at(-1)!.id },
        requestId,
      });
    }
    return inserted.length;
  });
  if (queued === 0) throw conflict(smsResendByCauseTexts.none, 'nothing_to_resend');
  await deps.jobs.nudge(QUEUES.smsDispatch);
  return { info: smsResendByCauseTexts.queued(queued), queued };
}
