import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditLog, settings, smsMessages } from '../../src/db/schema/index.ts';
import { africasTalkingGateway } from '../../src/integrations/sms/africastalking.ts';
import type { FakeAfricasTalking } from '../../src/integrations/sms/fake-africastalking.ts';
import type { SmsGateway } from '../../src/integrations/sms/gateway.ts';
import { dispatchQueuedSms } from '../../src/modules/sms/outbox.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { AT_API_KEY, fakeGateway, phones, queueTo, skipBackoff, resetBetweenTests } from './sms-test-kit.ts';

/**
 * Issue 12, Africa's Talking: answers seen from the real gateway that left messages looking sent,
 * unconfirmed for ever, or dropped after an hour. Each case against the fake, taught those answers.
 */
const HOOK = '/api/hooks/sms/delivery/test-webhook-secret-0123';

let t: TestApp;
let fake: FakeAfricasTalking;
let gateway: SmsGateway;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ fake, gateway } = await fakeGateway({ timeoutMs: 5_000 }));
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  admin = await t.tokenFor('boss@betdesk.test');
});
afterAll(async () => {
  await fake.close();
  await t.close();
});
afterEach(() => resetBetweenTests(t.deps.database, fake));

async function rowsOf(ids: number[]) {
  const { rows } = await t.deps.database.executeSql(
    `select id::int as id, status, attempts, failure_reason, failure_cause, last_error, provider_status
       from sms_messages where id = any($1::bigint[]) order by id`,
    [ids],
  );
  return rows as { id: number; status: string; attempts: number; failure_reason: string | null; failure_cause: string | null; last_error: string | null }[];
}

const backlog = async () => (await t.as(admin, { method: 'GET', url: '/api/sms/backlog' })).json();

describe("case 5: whole calls Africa's Talking refuses with a cause", () => {
  it('fails the batch on InvalidSenderId (201, no recipients), names the sender id, and raises the admin banner', async () => {
    fake.senderIds = ['APPROVED'];
    const ids = await queueTo(t.deps.database, phones(3, 254711500000), 'Sender check');
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ failed: 3, unconfirmed: 0 });
    const found = await rowsOf(ids);
    for (const row of found) {
      expect(row).toMatchObject({ status: 'failed', failure_cause: 'InvalidSenderId' });
      expect(row.failure_reason).toContain('"BETDESK"');
    }
    // The log shows the cause.
    const log = await t.as(admin, { method: 'GET', url: '/api/sms/log?status=failed' });
    expect(log.json().messages.find((m: { id: number }) => m.id === ids[0])).toMatchObject({ failure_cause: 'InvalidSenderId' });
    // The banner stays up until a message goes out after the refusal.
    expect((await backlog()).refusal).toMatchObject({ cause: 'InvalidSenderId' });
    fake.senderIds = ['BETDESK'];
    await queueTo(t.deps.database, ['254711500010'], 'After the fix');
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ sent: 1 });
    expect((await backlog()).refusal).toBeNull();
  });

  it('fails the batch when the username is refused (401), with the cause', async () => {
    const wrongUser = africasTalkingGateway({
      username: 'not-our-account',
      apiKey: AT_API_KEY,
      senderId: 'BETDESK',
      baseUrl: fake.url,
      logger: pino({ level: 'silent' }),
    });
    const ids = await queueTo(t.deps.database, phones(2, 254711600000), 'User check');
    expect(await dispatchQueuedSms(t.deps.database, wrongUser)).toMatchObject({ failed: 2 });
    expect(await rowsOf(ids)).toEqual([
      expect.objectContaining({ status: 'failed', failure_cause: 'InvalidCredentials', failure_reason: expect.stringContaining('username or API key') }),
      expect.objectContaining({ status: 'failed', failure_cause: 'InvalidCredentials' }),
    ]);
    expect((await backlog()).refusal).toMatchObject({ cause: 'InvalidCredentials' });
  });

  it('retries the batch on a whole-call InsufficientBalance, with the cause, and sends it after a top-up', async () => {
    fake.refuseNextCalls('InsufficientBalance');
    const ids = await queueTo(t.deps.database, phones(2, 254711700000), 'Balance check');
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ retried: 2, failed: 0 });
    expect(await rowsOf(ids)).toEqual([
      expect.objectContaining({ status: 'queued', failure_cause: 'InsufficientBalance' }),
      expect.objectContaining({ status: 'queued', failure_cause: 'InsufficientBalance' }),
    ]);
    await skipBackoff(t.deps.database);
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ sent: 2 });
    expect((await rowsOf(ids)).map((r) => [r.status, r.failure_cause])).toEqual([
      ['sent', null],
      ['sent', null],
    ]);
  });
});

describe('case 6: final delivery statuses', () => {
  async function sent(phone: string) {
    const [id] = await queueTo(t.deps.database, [phone], 'Delivery');
    await dispatchQueuedSms(t.deps.database, gateway);
    const [row] = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.id, id!));
    return row!;
  }
  const report = (form: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: HOOK,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });

  it.each([
    ['AbsentSubscriber', {}],
    ['Expired', {}],
    ['Failed', { failureReason: 'DeliveryFailure' }],
    ['Rejected', { failureReason: 'UserInBlackList' }],
  ])('maps %s to failed with its reason, and an admin may resend it', async (status, extra) => {
    const message = await sent(`2547118${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`);
    expect((await report({ id: message.providerMessageId!, status, ...extra })).statusCode).toBe(200);
    const [row] = await rowsOf([message.id]);
    const cause = (extra as { failureReason?: string }).failureReason ?? status;
    expect(row).toMatchObject({ status: 'failed', failure_cause: cause, failure_reason: cause });
    const resend = await t.as(admin, { method: 'POST', url: '/api/sms/resend', payload: { id: message.id } });
    expect(resend.statusCode).toBe(200);
    expect(resend.json().sms).toMatchObject({ status: 'queued', resent_from_id: message.id });
  });

  it('keeps Sent, Submitted and Buffered as on the way', async () => {
    const message = await sent('254711899001');
    for (const status of ['Sent', 'Submitted', 'Buffered']) await report({ id: message.providerMessageId!, status });
    expect((await rowsOf([message.id]))[0]).toMatchObject({ status: 'sent', failure_cause: null });
  });
});

describe('case 7: transient failures are retried for up to a day, then resent by cause', () => {
  const ageBy = (ids: number[], hours: number) =>
    t.deps.database.executeSql(`update sms_messages set created_at = now() - make_interval(hours => $2) where id = any($1::bigint[])`, [
      ids,
      hours,
    ]);

  it('keeps retrying through a 23-hour outage (well past 8 attempts) and gives up after the retry window', async () => {
    const [id] = await queueTo(t.deps.database, ['254711900001'], 'Outage');
    for (let i = 0; i < 10; i += 1) {
      fake.failNextCalls(503);
      await dispatchQueuedSms(t.deps.database, gateway);
      await skipBackoff(t.deps.database);
    }
    await ageBy([id!], 23);
    fake.failNextCalls(503);
    await dispatchQueuedSms(t.deps.database, gateway);
    expect((await rowsOf([id!]))[0]).toMatchObject({ status: 'queued', attempts: 11, failure_cause: 'HTTP 503' });

    const waiting = await backlog();
    expect(waiting.retrying).toBeGreaterThanOrEqual(1);
    expect(waiting.causes).toContainEqual(expect.objectContaining({ cause: 'HTTP 503', retrying: 1 }));

    await ageBy([id!], 25);
    await skipBackoff(t.deps.database);
    fake.failNextCalls(503);
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ failed: 1 });
    const [gaveUp] = await rowsOf([id!]);
    expect(gaveUp).toMatchObject({ status: 'failed', failure_cause: 'HTTP 503' });
    expect(gaveUp!.failure_reason).toContain('gave up after 12 attempts over 25 hours');
  });

  it('takes the retry window from the sms_retry_hours setting', async () => {
    await t.deps.db.update(settings).set({ value: 2 }).where(eq(settings.key, 'sms_retry_hours'));
    try {
      const [id] = await queueTo(t.deps.database, ['254711900002'], 'Short window');
      await ageBy([id!], 3);
      fake.failNextCalls(503);
      expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ failed: 1 });
    } finally {
      await t.deps.db.update(settings).set({ value: 24 }).where(eq(settings.key, 'sms_retry_hours'));
    }
  });

  it('resends all failed messages of one cause in one action, each once', async () => {
    fake.verdicts.set('+254711950001', { statusCode: 407, status: 'CouldNotRoute' });
    fake.verdicts.set('+254711950002', { statusCode: 407, status: 'CouldNotRoute' });
    fake.verdicts.set('+254711950003', { statusCode: 403, status: 'InvalidPhoneNumber' });
    const ids = await queueTo(t.deps.database, ['254711950001', '254711950002', '254711950003'], 'Route check');
    await dispatchQueuedSms(t.deps.database, gateway);
    // The first one was already resent by hand, and that resend failed too: only the resend is taken.
    const single = await t.as(admin, { method: 'POST', url: '/api/sms/resend', payload: { id: ids[0] } });
    await dispatchQueuedSms(t.deps.database, gateway);
    const firstResend = single.json().sms.id as number;
    expect((await rowsOf([firstResend]))[0]).toMatchObject({ status: 'failed', failure_cause: 'CouldNotRoute' });
    expect((await backlog()).causes).toContainEqual({ cause: 'CouldNotRoute', failed: 2, retrying: 0 });

    const res = await t.as(admin, { method: 'POST', url: '/api/sms/resend-by-cause', payload: { cause: 'CouldNotRoute' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ queued: 2 });
    const resent = await t.deps.db
      .select({ from: smsMessages.resentFromId, status: smsMessages.status })
      .from(smsMessages)
      .where(sql`${smsMessages.resentFromId} in (${ids[1]!}, ${firstResend})`);
    expect(resent.map((r) => r.from).sort()).toEqual([ids[1], firstResend].sort());
    expect(resent.every((r) => r.status === 'queued')).toBe(true);
    // Once per message: a second click queues nothing (409), the other cause is untouched.
    const again = await t.as(admin, { method: 'POST', url: '/api/sms/resend-by-cause', payload: { cause: 'CouldNotRoute' } });
    expect(again.statusCode).toBe(409);
    expect((await rowsOf([ids[2]!]))[0]).toMatchObject({ status: 'failed', failure_cause: 'InvalidPhoneNumber' });
    const [entry] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'sms.resend-by-cause'));
    expect(entry?.after).toMatchObject({ queued: 2 });
  });

  it('is for admins only and names the field when the cause is missing', async () => {
    await t.addUser({ email: 'agent@betdesk.test' });
    const staff = await t.tokenFor('agent@betdesk.test');
    expect((await t.as(staff, { method: 'POST', url: '/api/sms/resend-by-cause', payload: { cause: 'X' } })).statusCode).toBe(403);
    expect((await t.as(staff, { method: 'GET', url: '/api/sms/backlog' })).statusCode).toBe(403);
    const bad = await t.as(admin, { method: 'POST', url: '/api/sms/resend-by-cause', payload: { cause: '' } });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json())).toContain('cause');
  });
});

describe('case 8: 502 RejectedByGateway and 401 RiskHold', () => {
  it('fails both for good at the first answer (no automatic retry), each with its cause', async () => {
    fake.verdicts.set('+254711980001', { statusCode: 502, status: 'RejectedByGateway' });
    fake.verdicts.set('+254711980002', { statusCode: 401, status: 'RiskHold' });
    const ids = await queueTo(t.deps.database, ['254711980001', '254711980002'], 'Risky');
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ failed: 2, retried: 0 });
    await skipBackoff(t.deps.database);
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ batches: 0 });
    expect(fake.calls).toHaveLength(1);
    expect(await rowsOf(ids)).toEqual([
      expect.objectContaining({ status: 'failed', failure_cause: 'RejectedByGateway' }),
      expect.objectContaining({ status: 'failed', failure_cause: 'RiskHold' }),
    ]);
  });
});
