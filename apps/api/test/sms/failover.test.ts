import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { africasTalkingGateway } from '../../src/integrations/sms/africastalking.ts';
import { advantaGateway } from '../../src/integrations/sms/advanta.ts';
import { startFakeAdvanta, type FakeAdvanta } from '../../src/integrations/sms/fake-advanta.ts';
import type { FakeAfricasTalking } from '../../src/integrations/sms/fake-africastalking.ts';
import type { SmsGateway } from '../../src/integrations/sms/gateway.ts';
import { dispatchQueuedSms, queueSmsFanout } from '../../src/modules/sms/outbox.ts';
import { checkProviderHealth, type SmsProviders } from '../../src/modules/sms/circuit.ts';
import { pullDeliveryReports } from '../../src/modules/sms/provider-reports.ts';
import { isOptedOut, recordDeliveryReport } from '../../src/modules/sms/service.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { AT_API_KEY, AT_USERNAME, fakeGateway, phones, queueTo, resetBetweenTests } from './sms-test-kit.ts';

const silent = pino({ level: 'silent' });
let t: TestApp;
let at: FakeAfricasTalking;
let primary: SmsGateway;
let advanta: FakeAdvanta;
let secondary: SmsGateway;
let providers: SmsProviders;

beforeAll(async () => {
  t = await createTestApp();
  ({ fake: at, gateway: primary } = await fakeGateway({ timeoutMs: 5_000 }));
  advanta = await startFakeAdvanta({ apiKey: 'adv-key', partnerId: '4242', creditKes: 100_000 });
  secondary = advantaGateway({
    baseUrl: advanta.url,
    apiKey: 'adv-key',
    partnerId: '4242',
    senderId: 'BETDESK',
    promoSenderId: 'BETDESK-OFR',
    timeoutMs: 5_000,
    logger: silent,
  });
  providers = { primary, secondary };
});
afterAll(async () => {
  await at.close();
  await advanta.close();
  await t.close();
});
afterEach(async () => {
  await resetBetweenTests(t.deps.database, at);
  advanta.accepted.length = 0;
  advanta.calls = 0;
  advanta.hold = false;
  advanta.creditKes = 100_000;
  advanta.dlrs.clear();
  await t.deps.database.executeSql(`delete from sms_provider_circuits`);
  // Settled, so a later test's getdlr pull asks only for its own messages.
  await t.deps.database.executeSql(`update sms_messages set status = 'delivered' where status = 'sent'`);
  await t.deps.database.executeSql(`delete from settings where key like 'sms_circuit%' or key like 'sms_promotional_waits%'`);
});

async function setSetting(key: string, value: unknown): Promise<void> {
  await t.deps.database.executeSql(
    `insert into settings (key, value, description) values ($1, $2::jsonb, 'test')
     on conflict (key) do update set value = excluded.value`,
    [key, JSON.stringify(value)],
  );
}

interface Row {
  id: number;
  recipient: string;
  status: string;
  provider: string | null;
  provider_message_id: string;
  sms_class: string;
}
async function rowsOf(ids: number[]): Promise<Row[]> {
  const { rows } = await t.deps.database.executeSql(
    `select id::int as id, recipient, status, provider, provider_message_id, sms_class from sms_messages where id = any($1::bigint[]) order by id`,
    [ids],
  );
  return rows as unknown as Row[];
}

async function circuit(provider: string) {
  const { rows } = await t.deps.database.executeSql(`select state, reason from sms_provider_circuits where provider = $1`, [provider]);
  return rows[0];
}

/** Africa's Talking at a port nobody listens on: refused before hand-over. */
async function downPrimary(): Promise<SmsGateway> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return africasTalkingGateway({ username: AT_USERNAME, apiKey: AT_API_KEY, baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 5_000, logger: silent });
}

describe('failover to the second aggregator (decision 062)', () => {
  it('primary down before hand-over: the batch goes out once through the secondary, which is recorded on each message', async () => {
    const ids = await queueTo(t.deps.database, phones(3, 254712100000), 'Your sign-in code is 123456');
    const report = await dispatchQueuedSms(t.deps.database, { primary: await downPrimary(), secondary });
    expect(report.sent).toBe(3);
    expect(advanta.accepted.map((a) => a.mobile).sort()).toEqual(phones(3, 254712100000));
    const rows = await rowsOf(ids);
    expect(rows.every((r) => r.status === 'sent' && r.provider === 'advanta')).toBe(true);
    expect(await circuit('africastalking')).toMatchObject({ state: 'open', reason: expect.stringMatching(/failures in a row/) });
  });

  it('primary timing out after hand-over: unconfirmed, never sent by the secondary', async () => {
    at.onCall = () => 'hold';
    const ids = await queueTo(t.deps.database, phones(2, 254712200000), 'Receipt: KES 500 received');
    const report = await dispatchQueuedSms(t.deps.database, providers);
    expect(report.unconfirmed).toBe(2);
    at.onCall = null;
    await dispatchQueuedSms(t.deps.database, providers);
    expect(advanta.accepted).toHaveLength(0);
    const rows = await rowsOf(ids);
    expect(rows.map((r) => [r.status, r.provider])).toEqual([
      ['unconfirmed', 'africastalking'],
      ['unconfirmed', 'africastalking'],
    ]);
  });

  it('a credentials refusal (not accepted) opens the circuit at once and the batch goes through the secondary', async () => {
    at.failNextCalls(401, 1);
    const ids = await queueTo(t.deps.database, phones(2, 254712300000), 'Receipt two');
    await dispatchQueuedSms(t.deps.database, providers);
    expect((await rowsOf(ids)).map((r) => r.provider)).toEqual(['advanta', 'advanta']);
    expect(await circuit('africastalking')).toMatchObject({ state: 'open', reason: expect.stringMatching(/username or API key/) });
  });

  it('a burst of 5,000 with the primary failing midway sends each exactly once across both, within the send rate', async () => {
    const rate = 1_000;
    // A primary of its own, failing from its fourth request on.
    const { fake: at, gateway: burstPrimary } = await fakeGateway({ timeoutMs: 5_000, balanceKes: 100_000 });
    at.onCall = (call) => {
      if (call.seq === 4) at.failNextCalls(503, 100_000);
    };
    const providers = { primary: burstPrimary, secondary };
    await queueSmsFanout(t.deps.db, {
      intent: 'test.burst',
      dedupeKeyPrefix: 'burst',
      body: 'Tips of the day: Gor Mahia to win',
      recipients: sql`select (254713000000 + g)::text as phone from generate_series(0, 4999) g`,
      createdBy: null,
    });
    let report = await dispatchQueuedSms(t.deps.database, providers, { batchSize: 500, sendRate: rate });
    for (let i = 0; i < 20 && report.sent < 5000 && report.batches > 0; i += 1) {
      const more = await dispatchQueuedSms(t.deps.database, providers, { batchSize: 500, sendRate: rate });
      report = { ...more, sent: report.sent + more.sent };
    }
    const atNumbers = at.accepted.map((a) => a.number.replace('+', ''));
    const advNumbers = advanta.accepted.map((a) => a.mobile);
    const all = [...atNumbers, ...advNumbers];
    expect(atNumbers.length).toBeGreaterThan(0);
    expect(advNumbers.length).toBeGreaterThan(0);
    expect(all).toHaveLength(5000);
    expect(new Set(all).size).toBe(5000);
    // No request carried more than a second's worth of the shared rate, at either provider.
    expect(at.calls.every((c) => c.to.length <= rate)).toBe(true);
    const { rows } = await t.deps.database.executeSql(
      `select provider, count(*)::int as n from sms_messages where intent = 'test.burst' and status = 'sent' group by provider order by provider`,
    );
    expect(rows).toEqual([
      { provider: 'advanta', n: advNumbers.length },
      { provider: 'africastalking', n: atNumbers.length },
    ]);
    await at.close();
  }, 120_000);

  it('a low balance opens the circuit; the half-open probe after the delay closes it', async () => {
    advanta.creditKes = 50;
    const now = new Date();
    await checkProviderHealth(t.deps.db, providers, now, true);
    expect(await circuit('advanta')).toMatchObject({ state: 'open', reason: expect.stringMatching(/Low balance/) });

    // The primary is down too; the probe comes only once the delay is over and the balance is back.
    await t.deps.database.executeSql(
      `update sms_provider_circuits set state = 'open', reason = 'test', probe_at = now() + interval '1 day' where provider = 'africastalking'`,
    );
    const ids = await queueTo(t.deps.database, phones(2, 254712400000), 'Sign-in code 654321');
    await dispatchQueuedSms(t.deps.database, providers, { now: () => now });
    expect(advanta.accepted).toHaveLength(0);

    advanta.creditKes = 5_000;
    const later = new Date(now.getTime() + 121_000);
    await dispatchQueuedSms(t.deps.database, providers, { now: () => later });
    expect(await circuit('advanta')).toMatchObject({ state: 'closed', reason: null });
    expect((await rowsOf(ids)).map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it('DLRs from both providers settle each message; SenderName Blacklisted opts the recipient out', async () => {
    const viaAt = await queueTo(t.deps.database, phones(1, 254712500000), 'DLR one');
    await dispatchQueuedSms(t.deps.database, providers);
    await t.deps.database.executeSql(
      `update sms_provider_circuits set state = 'open', reason = 'test', probe_at = now() + interval '1 day' where provider = 'africastalking'`,
    );
    const viaAdv = await queueTo(t.deps.database, phones(3, 254712600000), 'DLR two');
    await dispatchQueuedSms(t.deps.database, providers);
    const [atRow] = await rowsOf(viaAt);
    const advRows = await rowsOf(viaAdv);
    expect(atRow!.provider).toBe('africastalking');
    expect(advRows.every((r) => r.provider === 'advanta')).toBe(true);

    await recordDeliveryReport(t.deps.db, { id: atRow!.provider_message_id, status: 'Success' });
    const secret = t.deps.config.webhookSecret;
    const pushed = await advanta.push(`${await url()}/api/hooks/sms/advanta/delivery/${secret}`, advRows[0]!.provider_message_id, 'DeliveredToTerminal');
    expect(pushed).toBe(200);
    const blacklisted = await advanta.push(`${await url()}/api/hooks/sms/advanta/delivery/${secret}`, advRows[1]!.provider_message_id, 'SenderName Blacklisted');
    expect(blacklisted).toBe(200);
    // A wrong secret is a 404 whatever the body.
    expect(await advanta.push(`${await url()}/api/hooks/sms/advanta/delivery/wrong-secret-0000000000`, advRows[2]!.provider_message_id, 'DeliveredToTerminal')).toBe(404);

    // The third has no report pushed: pulled with getdlr once the set time has passed.
    advanta.dlrs.set(advRows[2]!.provider_message_id, 'AbsentSubscriber');
    expect(await pullDeliveryReports(t.deps.db, providers, new Date(Date.now() + 31 * 60_000))).toBe(1);

    const settled = await rowsOf([...viaAt, ...viaAdv]);
    expect(settled.map((r) => r.status)).toEqual(['delivered', 'delivered', 'failed', 'failed']);
    expect(await isOptedOut(t.deps.db, advRows[1]!.recipient)).toBe(true);
    expect(await isOptedOut(t.deps.db, advRows[2]!.recipient)).toBe(false);
  });

  it('promotional texts wait for the primary when so set; transactional ones go through the secondary', async () => {
    await t.deps.database.executeSql(
      `insert into sms_provider_circuits (provider, state, reason, probe_at) values ('africastalking', 'open', 'test', now() + interval '7 days')
       on conflict (provider) do update set state = 'open', reason = 'test', probe_at = now() + interval '7 days'`,
    );
    await setSetting('sms_promotional_waits_for_primary', true);
    const promo = await queueTo(t.deps.database, phones(1, 254712700000), 'Offer: 20% off VIP tips');
    await t.deps.database.executeSql(`update sms_messages set sms_class = 'promotional' where id = $1`, [promo[0]]);
    const code = await queueTo(t.deps.database, phones(1, 254712800000), 'Sign-in code 111222');
    // Midday in Nairobi tomorrow: inside the promotional window, everything due.
    const midday = new Date(`${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}T09:00:00Z`);
    await dispatchQueuedSms(t.deps.database, providers, { now: () => midday });
    expect((await rowsOf([...promo, ...code])).map((r) => [r.status, r.provider])).toEqual([
      ['queued', null],
      ['sent', 'advanta'],
    ]);

    await setSetting('sms_promotional_waits_for_primary', false);
    await dispatchQueuedSms(t.deps.database, providers, { now: () => midday });
    expect((await rowsOf(promo)).map((r) => [r.status, r.provider])).toEqual([['sent', 'advanta']]);
    expect(advanta.accepted.find((a) => a.clientSmsId === promo[0])?.shortcode).toBe('BETDESK-OFR');
  });
});

let listening: string | null = null;
async function url(): Promise<string> {
  listening ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
  return listening;
}
