import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { africasTalkingGateway } from '../../src/integrations/sms/africastalking.ts';
import type { FakeAfricasTalking } from '../../src/integrations/sms/fake-africastalking.ts';
import type { SmsGateway } from '../../src/integrations/sms/gateway.ts';
import { loadConfig } from '../../src/config.ts';
import { dispatchQueuedSms } from '../../src/modules/sms/outbox.ts';
import { currentSmsBalance } from '../../src/modules/sms/service.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { AT_USERNAME, fakeGateway, messagesById, phones, queueTo, skipBackoff, resetBetweenTests } from './sms-test-kit.ts';

let t: TestApp;
let fake: FakeAfricasTalking;
let gateway: SmsGateway;
beforeAll(async () => {
  t = await createTestApp();
  ({ fake, gateway } = await fakeGateway({ timeoutMs: 5_000 }));
});
afterAll(async () => {
  await fake.close();
  await t.close();
});
afterEach(() => resetBetweenTests(t.deps.database, fake));

describe("Africa's Talking adapter against the fake gateway", () => {
  it('sends one request per text to many recipients and records provider id, cost and parts', async () => {
    const tips = await queueTo(t.deps.database, phones(3), 'D2: Arsenal & Chelsea both to score');
    const longUnicode = await queueTo(t.deps.database, phones(2, 254722000000), '✓ '.repeat(40));
    const report = await dispatchQueuedSms(t.deps.database, gateway);
    expect(report).toMatchObject({ sent: 5, failed: 0, retried: 0, unconfirmed: 0, batches: 2 });
    expect(fake.calls.map((c) => ({ to: c.to.length, from: c.from }))).toEqual([
      { to: 3, from: 'BETDESK' },
      { to: 2, from: 'BETDESK' },
    ]);
    expect(fake.calls[0]!.to[0]).toBe('+254711000000');
    const rows = await messagesById(t.deps.database, [...tips, ...longUnicode]);
    for (const row of rows.slice(0, 3)) {
      expect(row).toMatchObject({
        status: 'sent',
        attempts: 1,
        provider_message_id: expect.stringMatching(/^ATXid_/),
        provider_status: 'Success',
        cost_cents: 80,
        parts: 1,
      });
    }
    // 80 UCS-2 characters: two parts of 67.
    expect(rows[3]).toMatchObject({ status: 'sent', parts: 2, cost_cents: 160 });
  });

  it('splits a text into requests of at most the batch size', async () => {
    await queueTo(t.deps.database, phones(5, 254733000000), 'Batch me');
    const report = await dispatchQueuedSms(t.deps.database, gateway, { batchSize: 2 });
    expect(report).toMatchObject({ sent: 5, batches: 3 });
    expect(fake.calls.map((c) => c.to.length)).toEqual([2, 2, 1]);
  });

  it('records each recipient of a mixed answer: invalid and blacklisted numbers fail, no balance waits', async () => {
    fake.verdicts.set('+254744000002', { statusCode: 406, status: 'UserInBlacklist' });
    fake.verdicts.set('+254744000003', { statusCode: 405, status: 'InsufficientBalance' });
    const ids = await queueTo(t.deps.database, ['254744000001', '254744000002', '254744000003', '2547440'], 'Mixed');
    const report = await dispatchQueuedSms(t.deps.database, gateway);
    expect(report).toMatchObject({ sent: 1, failed: 2, retried: 1, batches: 1 });
    const [ok, blacklisted, noBalance, invalidNumber] = await messagesById(t.deps.database, ids);
    expect(ok).toMatchObject({ status: 'sent' });
    expect(blacklisted).toMatchObject({ status: 'failed', failure_reason: 'UserInBlacklist', provider_message_id: null });
    expect(noBalance).toMatchObject({ status: 'queued', waiting: true, last_error: 'InsufficientBalance' });
    expect(invalidNumber).toMatchObject({ status: 'failed', failure_reason: 'InvalidPhoneNumber' });
  });

  it('fails the batch with the cause when the gateway refuses the credentials (401): only a person can fix it', async () => {
    fake.failNextCalls(401);
    const ids = await queueTo(t.deps.database, phones(2, 254755000000), 'Key check');
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ sent: 0, failed: 2, retried: 0 });
    expect(await messagesById(t.deps.database, ids)).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 1, failure_reason: expect.stringContaining('401') }),
      expect.objectContaining({ status: 'failed', attempts: 1 }),
    ]);
  });

  it('retries after a gateway error (5xx) with backoff and sends on the next attempt', async () => {
    fake.failNextCalls(500);
    const [id] = await queueTo(t.deps.database, ['254766000001'], 'Retry me');
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ retried: 1, batches: 1 });
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ batches: 0 });
    await skipBackoff(t.deps.database);
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ sent: 1 });
    expect(await messagesById(t.deps.database, [id!])).toEqual([
      expect.objectContaining({ status: 'sent', attempts: 2, last_error: null }),
    ]);
    expect(fake.calls.map((c) => c.answered)).toEqual([500, 201]);
  });

  it('holds messages while the account has no balance and sends them once it is topped up', async () => {
    fake.balanceKes = 0;
    const ids = await queueTo(t.deps.database, phones(3, 254777000000), 'Top up first');
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ sent: 0, retried: 3 });
    fake.balanceKes = 100;
    await skipBackoff(t.deps.database);
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ sent: 3 });
    expect((await messagesById(t.deps.database, ids)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('gives up on a transient failure after the last attempt', async () => {
    fake.failNextCalls(503, 2);
    const [id] = await queueTo(t.deps.database, ['254788000001'], 'Doomed');
    await dispatchQueuedSms(t.deps.database, gateway, { maxAttempts: 2 });
    await skipBackoff(t.deps.database);
    expect(await dispatchQueuedSms(t.deps.database, gateway, { maxAttempts: 2 })).toMatchObject({ failed: 1 });
    expect(await messagesById(t.deps.database, [id!])).toEqual([
      expect.objectContaining({ status: 'failed', failure_reason: 'Gateway error (HTTP 503) (gave up after 2 attempts)' }),
    ]);
  });

  it('marks a message unconfirmed, and never resends it, when the gateway takes it but does not answer', async () => {
    fake.onCall = () => 'hold';
    const [id] = await queueTo(t.deps.database, ['254799000001'], 'Silent gateway');
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ unconfirmed: 1 });
    fake.onCall = null;
    await skipBackoff(t.deps.database);
    expect(await dispatchQueuedSms(t.deps.database, gateway)).toMatchObject({ batches: 0 });
    expect(fake.calls).toHaveLength(1);
    expect(await messagesById(t.deps.database, [id!])).toEqual([
      expect.objectContaining({ status: 'unconfirmed', last_error: expect.stringContaining('No answer') }),
    ]);
  });

  it('reads the balance, and the dashboard figure is cached for a minute', async () => {
    fake.balanceKes = 1785.5;
    expect(await gateway.balance()).toEqual({ amount: 1785.5, currency: 'KES' });
    const deps = { ...t.deps, sms: gateway };
    expect(await currentSmsBalance(deps)).toEqual({ amount: 1785.5, currency: 'KES' });
    fake.balanceKes = 10;
    expect(await currentSmsBalance(deps)).toEqual({ amount: 1785.5, currency: 'KES' });
  });

  it('reports no balance when the credentials are wrong or the gateway cannot be reached', async () => {
    const wrongKey = africasTalkingGateway({
      username: AT_USERNAME,
      apiKey: 'not-the-key',
      baseUrl: fake.url,
      logger: pino({ level: 'silent' }),
    });
    expect(await wrongKey.balance()).toBeNull();
    const { gateway: unreachable, fake: other } = await fakeGateway();
    await other.close();
    expect(await unreachable.balance()).toBeNull();
  });
});

describe('SMS configuration', () => {
  const base = { DATA_DIR: '/tmp/betdesk-test-data', SECRETS_KEY: '0'.repeat(64), WEBHOOK_SECRET: 'test-webhook-secret-0123' };

  it("refuses to start Africa's Talking without a username and API key", () => {
    expect(() => loadConfig({ ...base, SMS_PROVIDER: 'africastalking', AT_USERNAME: 'betdesk' })).toThrow(
      'AT_USERNAME and AT_API_KEY must be set when SMS_PROVIDER=africastalking',
    );
  });

  it('uses the sandbox address for the sandbox username, and names a bad batch size', () => {
    const config = loadConfig({ ...base, SMS_PROVIDER: 'africastalking', AT_USERNAME: 'sandbox', AT_API_KEY: 'k' });
    expect(config.sms.africasTalking).toMatchObject({ baseUrl: 'https://api.sandbox.africastalking.com' });
    expect(() => loadConfig({ ...base, SMS_BATCH_SIZE: '5000' })).toThrow(/SMS_BATCH_SIZE/);
  });
});
