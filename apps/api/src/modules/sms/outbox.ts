import { and, eq, sql, type SQL } from 'drizzle-orm';
import { rows } from '../../db/rows.ts';
import { smsMessages } from '../../db/schema/index.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { SmsGateway } from '../../integrations/sms/gateway.ts';
import { smsParts } from '../../lib/sms-parts.ts';

export interface SmsToQueue {
  /** Why it is sent, e.g. 'user.temporary-password', 'client.message'. */
  intent: string;
  /** Same key, same message: a retried request or a re-run fan-out does not send twice. */
  dedupeKey: string;
  /** E.164 digits. */
  to: string;
  body: string;
  createdBy: number | null;
}

/**
 * Records a message in the outbox. Call it inside the transaction that decides to send, then nudge
 * the dispatcher after commit. Returns the row id, or null when the same dedupe key was queued before.
 */
export async function queueSms(db: Queryable, sms: SmsToQueue): Promise<number | null> {
  const [row] = await db
    .insert(smsMessages)
    .values({
      intent: sms.intent,
      dedupeKey: sms.dedupeKey,
      recipient: sms.to,
      body: sms.body,
      parts: smsParts(sms.body),
      createdBy: sms.createdBy,
    })
    .onConflictDoNothing({ target: smsMessages.dedupeKey })
    .returning({ id: smsMessages.id });
  return row?.id ?? null;
}

export interface DispatchReport {
  sent: number;
  failed: number;
  retried: number;
}

/**
 * Sends queued messages through the gateway in batches until none is left. Rows are claimed with
 * SKIP LOCKED so two dispatchers never take the same message.
 */
export async function dispatchQueuedSms(
  database: Database,
  gateway: SmsGateway,
  batchSize = 100,
): Promise<DispatchReport> {
  const report: DispatchReport = { sent: 0, failed: 0, retried: 0 };
  for (;;) {
    const { rows } = await database.executeSql(
      `update sms_messages set status = 'sending', attempts = attempts + 1, updated_at = now()
         where id in (select id from sms_messages where status = 'queued' order by id limit $1 for update skip locked)
       returning id, recipient, body`,
      [batchSize],
    );
    if (rows.length === 0) return report;
    const batch = rows.map((r) => ({ id: Number(r.id), recipient: String(r.recipient), body: String(r.body) }));
    const outcomes = await gateway.send(batch).catch((error: unknown) =>
      batch.map((sms) => ({ id: sms.id, status: 'retry' as const, reason: String(error) })),
    );
    for (const outcome of outcomes) {
      if (outcome.status === 'sent') {
        report.sent += 1;
        await database.db
          .update(smsMessages)
          .set({
            status: 'sent',
            providerMessageId: outcome.providerMessageId,
            costCents: outcome.costCents,
            sentAt: sql`now()`,
            updatedAt: sql`now()`,
          })
          .where(and(eq(smsMessages.id, outcome.id), eq(smsMessages.status, 'sending')));
      } else {
        report[outcome.status === 'failed' ? 'failed' : 'retried'] += 1;
        await database.db
          .update(smsMessages)
          .set({
            status: outcome.status === 'failed' ? 'failed' : 'queued',
            lastError: outcome.reason,
            failureReason: outcome.status === 'failed' ? outcome.reason : null,
            updatedAt: sql`now()`,
          })
          .where(and(eq(smsMessages.id, outcome.id), eq(smsMessages.status, 'sending')));
      }
    }
    if (outcomes.some((o) => o.status === 'retry')) return report;
  }
}

export interface SmsFanout {
  intent: string;
  /** Each row's dedupe key is `${dedupeKeyPrefix}:${phone}`: once per (intent version, recipient). */
  dedupeKeyPrefix: string;
  body: string;
  /** A query returning one column `phone` (E.164 digits) per recipient. */
  recipients: SQL;
  createdBy: number | null;
}

/**
 * Queues one text to many recipients in one INSERT ... SELECT (no loop of inserts). Recipients
 * already sent this intent version are skipped. Returns how many rows were queued.
 */
export async function queueSmsFanout(db: Queryable, f: SmsFanout): Promise<number> {
  const [result] = await rows<{ queued: number }>(
    db,
    sql`with inserted as (
          insert into ${smsMessages} (intent, dedupe_key, recipient, body, parts, created_by)
          select ${f.intent}, ${f.dedupeKeyPrefix} || ':' || r.phone, r.phone, ${f.body}, ${smsParts(f.body)}, ${f.createdBy}
            from (${f.recipients}) as r
          on conflict (dedupe_key) do nothing
          returning 1)
        select count(*)::int as queued from inserted`,
  );
  return result?.queued ?? 0;
}
