import { sql } from 'drizzle-orm';
import { SMS_GATEWAY_REFUSALS, SMS_NOT_RESENDABLE_INTENTS } from '@betdesk/contract';
import type { Queryable } from '../../../db/client.ts';
import { rows } from '../../../db/rows.ts';
import { optedOutSql } from './opt-outs.ts';

/** Messages waiting for another attempt after a transient failure: how many, and the oldest's queueing time. */
export async function retryingMessages(db: Queryable): Promise<{ n: number; oldest: string | null }> {
  const [retry] = await rows<{ n: number; oldest: string | null }>(
    db,
    sql`select count(*)::int as n, min(created_at) as oldest
          from sms_messages where status = 'queued' and attempts > 0`,
  );
  return { n: Number(retry?.n ?? 0), oldest: retry?.oldest ?? null };
}

/**
 * The biggest failure causes (at most `limit`): per cause, the failed messages no one resent yet
 * and the messages being retried (partial index on failure_cause).
 */
export function failureCauses(db: Queryable, limit: number) {
  return rows<{ cause: string; failed: number; retrying: number }>(
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
         limit ${limit}`,
  );
}

/** The latest message the gateway refused for its sender id or credentials, if any. */
export async function latestGatewayRefusal(db: Queryable) {
  const causes = sql.join(SMS_GATEWAY_REFUSALS.map((c) => sql`${c}`), sql`, `);
  const [latest] = await rows<{ id: number; cause: (typeof SMS_GATEWAY_REFUSALS)[number]; reason: string | null; at: string }>(
    db,
    sql`select id, failure_cause as cause, failure_reason as reason, updated_at as at
          from sms_messages where failure_cause in (${causes}) and status = 'failed'
         order by id desc limit 1`,
  );
  return latest;
}

/** Whether a message queued after this one went out (sent or delivered). */
export async function sentAfter(db: Queryable, id: number): Promise<boolean> {
  const [later] = await rows<{ id: number }>(
    db,
    sql`select id from sms_messages where status in ('sent', 'delivered') and id > ${id} limit 1`,
  );
  return later !== undefined;
}

/**
 * Queues again, in one statement, every failed message of one cause that no one resent yet: never
 * a secret (temporary password, sign-in code), never a non-transactional message to a phone that
 * opted out since. Each new row links its original (not its broadcast) and continues its dedupe
 * key, so a second run queues nothing. Returns the new rows, oldest first.
 */
export function resendFailedOfCause(tx: Queryable, cause: string, createdBy: number) {
  return rows<{ id: number; resent_from_id: number }>(
    tx,
    sql`insert into sms_messages (intent, dedupe_key, recipient, body, parts, priority, client_id, subscriber_id,
                                  created_by, resent_from_id, sms_class, broadcast_id)
        select f.intent,
               -- never resent before (see below), so this is its first resend
               f.dedupe_key || ':resend:1',
               f.recipient, f.body, f.parts, f.priority, f.client_id, f.subscriber_id,
               ${createdBy}, f.id, f.sms_class, null
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
}
