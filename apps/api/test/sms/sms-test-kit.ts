import pino from 'pino';
import type { Database } from '../../src/db/client.ts';
import { africasTalkingGateway } from '../../src/integrations/sms/africastalking.ts';
import { startFakeAfricasTalking, type FakeAfricasTalking } from '../../src/integrations/sms/fake-africastalking.ts';
import type { SmsGateway } from '../../src/integrations/sms/gateway.ts';
import { queueSms } from '../../src/modules/sms/outbox.ts';

export const AT_USERNAME = 'betdesk';
export const AT_API_KEY = 'at-test-key';

/** The fake Africa's Talking and the real adapter pointed at it. */
export async function fakeGateway(
  options: { timeoutMs?: number; balanceKes?: number } = {},
): Promise<{ fake: FakeAfricasTalking; gateway: SmsGateway }> {
  const fake = await startFakeAfricasTalking({
    username: AT_USERNAME,
    apiKey: AT_API_KEY,
    balanceKes: options.balanceKes ?? 1000,
  });
  const gateway = africasTalkingGateway({
    username: AT_USERNAME,
    apiKey: AT_API_KEY,
    senderId: 'BETDESK',
    baseUrl: fake.url,
    timeoutMs: options.timeoutMs ?? 5_000,
    logger: pino({ level: 'silent' }),
  });
  return { fake, gateway };
}

let seq = 0;

/** Queues one message per phone with a fresh dedupe key; returns the row ids. */
export async function queueTo(database: Database, phones: string[], body: string): Promise<number[]> {
  const ids: number[] = [];
  for (const phone of phones) {
    seq += 1;
    const id = await queueSms(database.db, { intent: 'test', dedupeKey: `test:${seq}:${phone}`, to: phone, body, createdBy: null });
    ids.push(id!);
  }
  return ids;
}

/** n distinct valid Kenyan mobile numbers (E.164 digits) from a base. */
export function phones(n: number, base = 254711000000): string[] {
  return Array.from({ length: n }, (_, i) => String(base + i));
}

export async function messagesById(database: Database, ids: number[]) {
  const { rows } = await database.executeSql(
    `select id::int as id, recipient, status, attempts, provider_message_id, provider_status, cost_cents::int as cost_cents, parts,
            last_error, failure_reason, next_attempt_at > now() as waiting, sent_at, delivered_at, network_code
       from sms_messages where id = any($1::bigint[]) order by id`,
    [ids],
  );
  return rows;
}

/** Makes every waiting (backed-off) message due now, as if its backoff had passed. */
export async function skipBackoff(database: Database): Promise<void> {
  await database.executeSql(`update sms_messages set next_attempt_at = now() where status = 'queued'`);
}

/** Settles everything still queued so each test starts from an empty queue. */
export async function clearQueue(database: Database): Promise<void> {
  await database.executeSql(`update sms_messages set status = 'failed', failure_reason = 'test cleanup' where status in ('queued', 'sending')`);
}

/** Between tests: an empty queue, and the fake as it starts (no calls, verdicts, hooks or sender ids, KES 1,000). */
export async function resetBetweenTests(database: Database, fake: FakeAfricasTalking): Promise<void> {
  await clearQueue(database);
  fake.calls.length = 0;
  fake.verdicts.clear();
  fake.onCall = null;
  fake.senderIds = [];
  fake.balanceKes = 1000;
}
