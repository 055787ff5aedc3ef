import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FakeAfricasTalking } from '../../src/integrations/sms/fake-africastalking.ts';
import type { SmsGateway } from '../../src/integrations/sms/gateway.ts';
import { rows } from '../../src/db/rows.ts';
import { dispatchQueuedSms, queueSms, queueSmsFanout } from '../../src/modules/sms/outbox.ts';
import { optOutState } from '../../src/modules/sms/opt-outs.ts';
import { createTestApp, giveMarketingConsent, type TestApp } from '../helpers.ts';
import { fakeGateway, messagesById } from './sms-test-kit.ts';

let t: TestApp;
let fake: FakeAfricasTalking;
let gateway: SmsGateway;
beforeAll(async () => {
  t = await createTestApp();
  ({ fake, gateway } = await fakeGateway({ timeoutMs: 5_000 }));
  // Offers go only to phones that agreed to them (decision 025): these did.
  await giveMarketingConsent(t, '254788000001', '254788000002', '254788000003');
});
afterAll(async () => {
  await fake.close();
  await t.close();
});

// 10:00 in Nairobi: inside the promotional window.
const at10 = new Date('2030-02-01T07:00:00Z');
const DND_PHONE = '254788000001';
const promo = (dedupeKey: string, to = DND_PHONE) =>
  queueSms(t.deps.db, { intent: 'test.promotion', dedupeKey, to, body: 'Big odds', createdBy: null, smsClass: 'promotional', now: at10 });

describe("409 DoNotDisturbRejection from Africa's Talking", () => {
  it('fails the message at once with the cause, and the phone gets no more offers but still its paid tips', async () => {
    fake.verdicts.set(`+${DND_PHONE}`, { statusCode: 409, status: 'DoNotDisturbRejection' });
    const [dnd, other] = [await promo('dnd:1'), await promo('dnd:2', '254788000002')];

    const report = await dispatchQueuedSms(t.deps.database, gateway, { now: () => at10, sendRate: 10_000 });
    expect(report).toMatchObject({ sent: 1, failed: 1, retried: 0 });
    const [refused, delivered] = await messagesById(t.deps.database, [dnd!, other!]);
    expect(refused).toMatchObject({ status: 'failed', attempts: 1, waiting: false, provider_status: 'DoNotDisturbRejection' });
    expect(refused!.failure_reason).toContain('DoNotDisturbRejection');
    expect(delivered).toMatchObject({ status: 'sent' });
    const [cause] = await rows<{ failure_cause: string }>(t.deps.db, sql`select failure_cause from sms_messages where id = ${dnd}`);
    expect(cause!.failure_cause).toBe('DoNotDisturbRejection');

    expect(await optOutState(t.deps.db, DND_PHONE)).toMatchObject({
      opted_out: false,
      offers_stopped: true,
      history: [{ action: 'opt-out', scope: 'promotional', source: 'dnd' }],
    });
    // Offers are no longer queued for the phone, one by one or in a fan-out ...
    expect(await promo('dnd:3')).toBeNull();
    const fanned = await queueSmsFanout(t.deps.db, {
      intent: 'test.broadcast',
      dedupeKeyPrefix: 'dnd-fanout',
      body: 'Weekend offer',
      recipients: sql`select * from (values (${DND_PHONE}), ('254788000003')) as v(phone)`,
      createdBy: null,
      smsClass: 'promotional',
      now: at10,
    });
    expect(fanned).toBe(1);
    // ... while paid tips and receipts still go.
    expect(await queueSms(t.deps.db, { intent: 'test.tip', dedupeKey: 'dnd:tip', to: DND_PHONE, body: 'D2 tip', createdBy: null, smsClass: 'service' })).not.toBeNull();
    expect(await queueSms(t.deps.db, { intent: 'test.receipt', dedupeKey: 'dnd:receipt', to: DND_PHONE, body: 'Received', createdBy: null })).not.toBeNull();
  });
});
