import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { queueSms, dispatchQueuedSms } from '../../src/modules/sms/outbox.ts';
import { startJobs, QUEUES } from '../../src/jobs/jobs.ts';
import type { SmsGateway } from '../../src/integrations/sms/gateway.ts';
import { smsParts } from '@betdesk/contract';
import { createTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function statuses() {
  const { rows } = await t.deps.database.executeSql(
    `select dedupe_key, status, attempts, provider_message_id, failure_reason from sms_messages order by id`,
  );
  return rows;
}

describe('SMS outbox', () => {
  it('records a message once per dedupe key', async () => {
    const first = await queueSms(t.deps.db, {
      intent: 'test.hello',
      dedupeKey: 'hello:254712000001',
      to: '254712000001',
      body: 'Habari',
      createdBy: null,
    });
    const again = await queueSms(t.deps.db, {
      intent: 'test.hello',
      dedupeKey: 'hello:254712000001',
      to: '254712000001',
      body: 'Habari',
      createdBy: null,
    });
    expect(first).toBeTypeOf('number');
    expect(again).toBeNull();
    expect(await statuses()).toHaveLength(1);
  });

  it('sends queued rows through the log gateway and marks them sent', async () => {
    const report = await dispatchQueuedSms(t.deps.database, t.deps.sms);
    expect(report).toMatchObject({ sent: 1, failed: 0, retried: 0 });
    expect(await statuses()).toEqual([
      expect.objectContaining({ status: 'sent', attempts: 1, provider_message_id: expect.stringMatching(/^log-/) }),
    ]);
    expect(await dispatchQueuedSms(t.deps.database, t.deps.sms)).toMatchObject({ sent: 0, failed: 0, retried: 0 });
  });

  it('puts transient failures back in the queue and records permanent ones', async () => {
    for (const n of ['254712000002', '254712000003']) {
      await queueSms(t.deps.db, { intent: 'test', dedupeKey: `t:${n}`, to: n, body: 'Hi', createdBy: null });
    }
    const flaky: SmsGateway = {
      name: 'flaky',
      async send(batch) {
        return batch.map((sms) =>
          sms.recipient.endsWith('2')
            ? { id: sms.id, status: 'failed' as const, reason: 'InvalidPhoneNumber' }
            : { id: sms.id, status: 'retry' as const, reason: 'GatewayError' },
        );
      },
      async balance() {
        return null;
      },
    };
    expect(await dispatchQueuedSms(t.deps.database, flaky)).toMatchObject({ sent: 0, failed: 1, retried: 1 });
    const rows = await statuses();
    expect(rows.find((r) => r.dedupe_key === 't:254712000002')).toMatchObject({
      status: 'failed',
      failure_reason: 'InvalidPhoneNumber',
    });
    expect(rows.find((r) => r.dedupe_key === 't:254712000003')).toMatchObject({ status: 'queued', attempts: 1 });
  });

  it('is drained by the pg-boss job when nudged', async () => {
    const jobs = await startJobs(
      t.deps.database,
      [{ queue: QUEUES.smsDispatch, run: async () => void (await dispatchQueuedSms(t.deps.database, t.deps.sms)) }],
      pino({ level: 'silent' }),
    );
    try {
      // The message retried above is due again once its backoff has passed.
      await t.deps.database.executeSql(`update sms_messages set next_attempt_at = now() where status = 'queued'`);
      await jobs.nudge(QUEUES.smsDispatch);
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const rows = await statuses();
        if (rows.every((r) => r.status !== 'queued')) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect((await statuses()).filter((r) => r.status === 'queued')).toEqual([]);
    } finally {
      await jobs.stop();
    }
  });
});

describe('SMS parts', () => {
  it('counts GSM-7 at 160 then 153 a part and UCS-2 at 70 then 67', () => {
    expect(smsParts('a'.repeat(160))).toBe(1);
    expect(smsParts('a'.repeat(161))).toBe(2);
    expect(smsParts('a'.repeat(306))).toBe(2);
    expect(smsParts('€'.repeat(80))).toBe(1);
    expect(smsParts('€'.repeat(81))).toBe(2);
    expect(smsParts('✓'.repeat(70))).toBe(1);
    expect(smsParts('✓'.repeat(71))).toBe(2);
  });
});
