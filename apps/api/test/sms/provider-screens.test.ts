import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advantaGateway } from '../../src/integrations/sms/advanta.ts';
import { startFakeAdvanta, type FakeAdvanta } from '../../src/integrations/sms/fake-advanta.ts';
import type { FakeAfricasTalking } from '../../src/integrations/sms/fake-africastalking.ts';
import { dispatchQueuedSms } from '../../src/modules/sms/outbox.ts';
import { smsProvidersOf } from '../../src/modules/sms/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { fakeGateway, phones, queueTo } from './sms-test-kit.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';
let t: TestApp;
let admin: string;
let staff: string;
let at: FakeAfricasTalking;
let advanta: FakeAdvanta;

beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN } });
  let primary;
  ({ fake: at, gateway: primary } = await fakeGateway({ timeoutMs: 5_000 }));
  advanta = await startFakeAdvanta({ apiKey: 'adv-key', partnerId: '4242' });
  t.deps.sms = primary;
  t.deps.smsFailover = advantaGateway({ baseUrl: advanta.url, apiKey: 'adv-key', partnerId: '4242', senderId: 'BETDESK', logger: pino({ level: 'silent' }) });
  await t.addUser({ email: 'admin@betdesk.test', categoryId: ADMIN });
  await t.addUser({ email: 'staff@betdesk.test' });
  admin = await t.tokenFor('admin@betdesk.test');
  staff = await t.tokenFor('staff@betdesk.test');

  // Two messages through Africa's Talking, then it refuses the credentials: three through Advanta.
  await queueTo(t.deps.database, phones(2, 254712900000), 'Receipt: KES 300 received');
  await dispatchQueuedSms(t.deps.database, smsProvidersOf(t.deps));
  at.failNextCalls(401, 1);
  await queueTo(t.deps.database, phones(3, 254712910000), 'Tips of the day: Over 2.5');
  await dispatchQueuedSms(t.deps.database, smsProvidersOf(t.deps));
});
afterAll(async () => {
  await at.close();
  await advanta.close();
  await t.close();
});

const get = (url: string, token = admin) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

describe('the SMS providers on the screens (decision 062)', () => {
  it("shows each provider's state and reason, primary first; staff without the SMS log may not", async () => {
    const res = await get('/api/sms/providers');
    expect(res.statusCode).toBe(200);
    expect(res.json().providers).toMatchObject([
      { provider: 'africastalking', role: 'primary', state: 'open', reason: expect.stringMatching(/username or API key/), sends: 2, price_per_part: 0.8 },
      { provider: 'advanta', role: 'secondary', state: 'closed', reason: null, sends: 3, price_per_part: 0.6 },
    ]);
    expect((await get('/api/sms/providers', staff)).statusCode).toBe(403);
  });

  it('the SMS log shows the provider of each message and filters by it; a bad provider is a 4xx naming the field', async () => {
    const all = (await get('/api/sms/log?perPage=50')).json();
    expect(all.messages.map((m: { provider: string }) => m.provider).sort()).toEqual(['advanta', 'advanta', 'advanta', 'africastalking', 'africastalking']);
    const viaAdvanta = (await get('/api/sms/log?provider=advanta&perPage=50')).json();
    expect(viaAdvanta.messages).toHaveLength(3);
    expect(viaAdvanta.total_records).toBe(3);
    expect(viaAdvanta.status_counts.sent).toBe(3);
    const bad = await get('/api/sms/log?provider=Not%20One');
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toMatch(/provider/);
  });

  it("the composer's estimate uses the price of the provider carrying SMS now", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/sms/estimate', headers: { authorization: `Bearer ${admin}` }, payload: { text: 'Hello', recipients: 100 } });
    expect(res.json()).toMatchObject({ provider: 'advanta', price_per_part: 0.6, cost: 60 });
  });

  it('the monthly cost report per provider and kind of text, and its CSV', async () => {
    const month = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 7);
    const res = await get(`/api/sms/cost-report?month=${month}`);
    expect(res.json()).toEqual({
      month,
      // Africa's Talking said what each cost (KES 0.80); Advanta did not: 3 parts at its price.
      rows: [
        { provider: 'advanta', sms_class: 'transactional', messages: 3, parts: 3, cost: 1.8 },
        { provider: 'africastalking', sms_class: 'transactional', messages: 2, parts: 2, cost: 1.6 },
      ],
      total: { messages: 5, parts: 5, cost: 3.4 },
    });
    const csv = await get(`/api/sms/cost-report/export?month=${month}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')).toEqual([
      'Month,Provider,Kind of text,Messages,Parts,Cost (KES)',
      `${month},advanta,transactional,3,3,1.80`,
      `${month},africastalking,transactional,2,2,1.60`,
      '',
    ]);
    expect((await get("/api/sms/cost-report?month=2026-13")).statusCode).toBe(422);
  });

  it('/metrics has each provider up or down and its sends and failures', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.body).toContain('betdesk_sms_provider_up{provider="africastalking",role="primary"} 0');
    expect(res.body).toContain('betdesk_sms_provider_up{provider="advanta",role="secondary"} 1');
    expect(res.body).toContain('betdesk_sms_provider_sends_total{provider="advanta"} 3');
    expect(res.body).toMatch(/betdesk_sms_provider_failures_total\{provider="africastalking"\} 3/);
  });
});
