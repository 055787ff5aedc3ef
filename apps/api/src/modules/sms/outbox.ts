import { and, eq, sql } from 'drizzle-orm';
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
