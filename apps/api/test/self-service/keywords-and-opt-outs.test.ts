import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import pino from 'pino';
import { smsSelfServiceTexts } from '@betdesk/contract';
import { auditLog, smsInbound, smsMessages, subscriptions } from '../../src/db/schema/index.ts';
import { runSubscriptionExpiry } from '../../src/modules/subscriptions/expiry.ts';
import { africasTalkingGateway } from '../../src/integrations/sms/africastalking.ts';
import { startFakeAfricasTalking, type FakeAfricasTalking } from '../../src/integrations/sms/fake-africastalking.ts';
import { dispatchQueuedSms, queueSms } from '../../src/modules/sms/outbox.ts';
import { publishSmsTip } from '../../src/modules/tips-sms/service.ts';
import { ADMIN, createTestApp, giveMarketingConsent, type TestApp } from '../helpers.ts';
import { seedPeople } from '../mpesa/fixtures.ts';
import { fakeGateway } from '../sms/sms-test-kit.ts';

const SECRET = 'test-webhook-secret-0123';
const DAY = 86_400_000;
let t: TestApp;
let at: FakeAfricasTalking;
let base: string;
let ref: Awaited<ReturnType<typeof seedPeople>>;
let admin: string;
let staff: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  at = await startFakeAfricasTalking();
  ref = await seedPeople(t);
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  await t.addUser({ email: 'agent@betdesk.test' });
  admin = await t.tokenFor('boss@betdesk.test');
  staff = await t.tokenFor('agent@betdesk.test');
});
afterAll(async () => {
  await t.close();
  await at.close();
});

const inboundUrl = (secret = SECRET) => `${base}/api/hooks/sms/inbound/${secret}`;
const text = (from: string, body: string, id?: string) => at.postInbound(inboundUrl(), { from, text: body, ...(id ? { id } : {}) });

async function subscribed(name: string, phone: string, categoryId = ref.d2.id) {
  const subscriberId = await ref.person('subscriber', name, phone);
  await t.deps.db.insert(subscriptions).values({
    subscriberId,
    betCategoryId: categoryId,
    medium: 'sms',
    durationDays: 7,
    amountCents: 10_000,
    startsAt: new Date(),
    expiresAt: new Date(Date.now() + 7 * DAY),
    source: 'manual',
  });
  return subscriberId;
}

async function optOutOf(subscriberId: number) {
  const res = await t.as(admin, { method: 'GET', url: `/api/sms/opt-out/subscriber?subscriber_id=${subscriberId}` });
  expect(res.statusCode).toBe(200);
  return res.json().opt_out;
}

async function messagesTo(phone: string) {
  return t.deps.db.select().from(smsMessages).where(eq(smsMessages.recipient, phone)).orderBy(asc(smsMessages.id));
}

describe('SMS keywords (inbound webhook)', () => {
  it('refuses a wrong secret with 404 and stores nothing', async () => {
    expect(await at.postInbound(inboundUrl('not-the-secret-000000'), { from: '+254733000001', text: 'STOP', id: 'ATin-wrong' })).toBe(404);
    expect(await t.deps.db.select().from(smsInbound).where(eq(smsInbound.providerId, 'ATin-wrong'))).toHaveLength(0);
  });

  it('STOP opts the phone out of everything, answers once, and links the message to the subscriber', async () => {
    const subscriberId = await subscribed('Stopper', '254733000002');
    expect(await text('+254733000002', '  stop ', 'ATin-stop-1')).toBe(200);
    expect(await text('+254733000002', '  stop ', 'ATin-stop-1')).toBe(200); // the gateway retried
    const stored = await t.deps.db.select().from(smsInbound).where(eq(smsInbound.providerId, 'ATin-stop-1'));
    expect(stored).toMatchObject([{ subscriberId, keyword: 'STOP', action: 'Opted out of all tips and offers; confirmation sent' }]);
    expect(await optOutOf(subscriberId)).toMatchObject({ opted_out: true, history: [{ action: 'opt-out', source: 'keyword', scope: 'all' }] });
    const replies = await messagesTo('254733000002');
    expect(replies).toMatchObject([{ intent: 'sms.keyword-reply', smsClass: 'transactional', subscriberId }]);
    expect(replies[0]!.body).toContain('no more tips');
  });

  it('STOP <code> stops only that category, and START opts back in', async () => {
    const subscriberId = await subscribed('Category Stopper', '254733000003');
    await text('254733000003', 'STOP d2');
    expect(await optOutOf(subscriberId)).toMatchObject({ opted_out: false, categories: ['D2'] });
    await text('254733000003', 'Start');
    const state = await optOutOf(subscriberId);
    expect(state).toMatchObject({ opted_out: false, categories: [] });
    expect(state.history.map((h: { action: string }) => h.action)).toEqual(['opt-in', 'opt-out']);
    expect((await messagesTo('254733000003')).map((m) => m.intent)).toEqual(['sms.keyword-reply', 'sms.keyword-reply']);
  });

  it('answers a category code with its prices (no STK push without M-Pesa) and anything else with help, kept in the inbox', async () => {
    await text('+254733000004', 'OV');
    await text('+254733000004', 'Hello, how do I join?');
    const inbox = await t.as(admin, { method: 'GET', url: '/api/sms/inbox?search=0733000004' });
    expect(inbox.statusCode).toBe(200);
    expect(inbox.json().messages).toMatchObject([
      { text: 'Hello, how do I join?', keyword: 'HELP', action: 'Kept for staff; help reply sent' },
      { text: 'OV', keyword: 'OV', action: 'OV prices sent' },
    ]);
    // OV has no package: the help text answers instead.
    const replies = await messagesTo('254733000004');
    expect(replies).toHaveLength(2);
    expect(replies[1]!.body).toContain('send a category code');
    expect((await t.as(staff, { method: 'GET', url: '/api/sms/inbox' })).statusCode).toBe(403);
  });

  it('answers HELP with the help text from settings, whatever its case', async () => {
    expect(await text('+254733000010', ' help ', 'ATin-help-1')).toBe(200);
    const [stored] = await t.deps.db.select().from(smsInbound).where(eq(smsInbound.providerId, 'ATin-help-1'));
    expect(stored).toMatchObject({ keyword: 'HELP', action: 'Kept for staff; help reply sent' });
    const replies = await messagesTo('254733000010');
    expect(replies).toMatchObject([{ intent: 'sms.keyword-reply', smsClass: 'transactional' }]);
    expect(replies[0]!.body).toContain('send a category code');
  });
});

describe('Opt-out routes', () => {
  it("records Africa's Talking opt-out callback", async () => {
    const subscriberId = await subscribed('Provider Optout', '254733000005');
    expect(await at.postOptOut(`${base}/api/hooks/sms/optout/${SECRET}`, { senderId: 'BETDESK', phoneNumber: '+254733000005' })).toBe(200);
    expect(await optOutOf(subscriberId)).toMatchObject({ opted_out: true, history: [{ source: 'provider' }] });
    expect(await at.postOptOut(`${base}/api/hooks/sms/optout/wrong-secret-00000000`, { phoneNumber: '+254733000005' })).toBe(404);
  });

  it('opts out a phone whose send was answered 406 UserInBlacklist', async () => {
    const subscriberId = await subscribed('Blacklisted', '254733000006');
    const { fake, gateway } = await fakeGateway();
    try {
      fake.verdicts.set('+254733000006', { statusCode: 406, status: 'UserInBlacklist' });
      await queueSms(t.deps.db, { intent: 'client.message', dedupeKey: 'blacklist-test', to: '254733000006', body: 'Hello', createdBy: null });
      await dispatchQueuedSms(t.deps.database, gateway, { sendRate: 10_000 });
      expect(await optOutOf(subscriberId)).toMatchObject({ opted_out: true, history: [{ source: 'blacklist' }] });
    } finally {
      await fake.close();
    }
  });

  it('lets an admin opt a subscriber out, and clear it only with a reason, audited', async () => {
    const subscriberId = await subscribed('Admin Optout', '254733000007');
    expect((await t.as(staff, { method: 'POST', url: '/api/sms/opt-out', payload: { subscriber_id: subscriberId } })).statusCode).toBe(403);
    const out = await t.as(admin, { method: 'POST', url: '/api/sms/opt-out', payload: { subscriber_id: subscriberId, reason: 'Asked on the phone' } });
    expect(out.statusCode).toBe(200);
    expect(out.json().opt_out).toMatchObject({ opted_out: true, history: [{ source: 'admin', reason: 'Asked on the phone', by: 'boss' }] });
    const noReason = await t.as(admin, { method: 'POST', url: '/api/sms/opt-out/clear', payload: { subscriber_id: subscriberId, reason: '' } });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().errors.reason).toBeDefined();
    const cleared = await t.as(admin, { method: 'POST', url: '/api/sms/opt-out/clear', payload: { subscriber_id: subscriberId, reason: 'Texted us to come back' } });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().opt_out).toMatchObject({ opted_out: false });
    const audits = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.entity, 'sms_opt_out'), eq(auditLog.entityId, '254733000007')));
    expect(audits.map((a) => a.action).sort()).toEqual(['sms.opt-out', 'sms.opt-out.clear']);
  });
});

describe('Opt-outs in the outbox', () => {
  it('leaves opted-out phones out of a tips fan-out and reminders, while transactional messages still go', async () => {
    await subscribed('Fan One', '254744000001', ref.ov.id);
    const stopped = await subscribed('Fan Two', '254744000002', ref.ov.id);
    await subscribed('Fan Three', '254744000003', ref.ov.id);
    await text('254744000002', 'STOP');
    await text('254744000003', 'STOP OV');
    const { queued } = await publishSmsTip(t.deps.db, { betCategoryId: ref.ov.id, content: 'OV tip of the day', createdBy: null });
    expect(queued).toBe(1);
    const tips = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.body, 'OV tip of the day'));
    expect(tips.map((m) => m.recipient)).toEqual(['254744000001']);

    await t.deps.db.update(subscriptions).set({ expiresAt: new Date(Date.now() + DAY / 2) }).where(eq(subscriptions.subscriberId, stopped));
    await runSubscriptionExpiry(t.deps.db);
    expect((await messagesTo('254744000002')).map((m) => m.intent)).toEqual(['sms.keyword-reply']);

    const id = await queueSms(t.deps.db, { intent: 'client.message', dedupeKey: 'to-stopped', to: '254744000002', body: 'Receipt', createdBy: null });
    expect(id).not.toBeNull();
  });
});

describe('Promotional window', () => {
  // 2030-01-10 20:00 in Nairobi (UTC+3) is 17:00 UTC; the window opens at 08:00 Nairobi, 05:00 UTC.
  const at20 = new Date('2030-01-10T17:00:00Z');
  const at0759 = new Date('2030-01-11T04:59:00Z');
  const at0800 = new Date('2030-01-11T05:00:00Z');

  it('holds a promotional message queued at 20:00 until 08:00, with the opt-out text, and the log shows it held', async () => {
    await giveMarketingConsent(t, '254755000001');
    const id = await queueSms(t.deps.db, {
      intent: 'test.promotion',
      dedupeKey: 'promo-window',
      to: '254755000001',
      body: 'Big odds this weekend',
      createdBy: null,
      smsClass: 'promotional',
      now: at20,
    });
    const [row] = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.id, id!));
    expect(row).toMatchObject({ body: 'Big odds this weekend STOP*456*9*5#', smsClass: 'promotional', status: 'queued' });
    expect(row!.nextAttemptAt.toISOString()).toBe(at0800.toISOString());
    const log = await t.as(admin, { method: 'GET', url: '/api/sms/log?search=0755000001' });
    expect(log.json().messages[0]).toMatchObject({ status: 'queued', held_until: at0800.toISOString() });

    await dispatchQueuedSms(t.deps.database, t.deps.sms, { now: () => at0759 });
    const [still] = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.id, id!));
    expect(still!.status).toBe('queued');
    await dispatchQueuedSms(t.deps.database, t.deps.sms, { now: () => at0800 });
    const [sent] = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.id, id!));
    expect(sent!.status).toBe('sent');
  });
});

describe('Promotional sender id', () => {
  it('sends promotional messages from AT_SENDER_ID_PROMO and the rest from AT_SENDER_ID', async () => {
    const fake = await startFakeAfricasTalking({ username: 'betdesk', apiKey: 'at-test-key' });
    try {
      const gateway = africasTalkingGateway({
        username: 'betdesk',
        apiKey: 'at-test-key',
        senderId: 'BETDESK',
        promoSenderId: 'BETOFFERS',
        baseUrl: fake.url,
        timeoutMs: 5_000,
        logger: pino({ level: 'silent' }),
      });
      await giveMarketingConsent(t, '254755000002');
      // 10:00 in Nairobi: inside the promotional window.
      const at10 = new Date('2030-02-01T07:00:00Z');
      await queueSms(t.deps.db, { intent: 'test.promotion', dedupeKey: 'promo-sender', to: '254755000002', body: 'Promo sender check', createdBy: null, smsClass: 'promotional', now: at10 });
      await queueSms(t.deps.db, { intent: 'client.message', dedupeKey: 'plain-sender', to: '254755000002', body: 'Plain sender check', createdBy: null });
      await dispatchQueuedSms(t.deps.database, gateway, { now: () => at10, sendRate: 10_000 });
      const promo = fake.calls.find((c) => c.message.startsWith('Promo sender check'));
      const plain = fake.calls.find((c) => c.message === 'Plain sender check');
      expect(promo).toMatchObject({ from: 'BETOFFERS', to: ['+254755000002'] });
      expect(plain).toMatchObject({ from: 'BETDESK', to: ['+254755000002'] });
    } finally {
      await fake.close();
    }
  });
});

describe('Broadcasts', () => {
  it('previews the recipients after opt-outs, and queues once per idempotency key', async () => {
    await ref.person('client', 'Client One', '254766000001');
    await ref.person('client', 'Client Two', '254766000002');
    await giveMarketingConsent(t, '254766000001', '254766000002');
    await text('254766000002', 'STOP');
    const audience = { segment: 'clients-all', message: 'Bet4Me: double bonus week' };
    const preview = await t.as(admin, { method: 'POST', url: '/api/broadcasts/preview', payload: audience });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ recipients: 1, opted_out: 1, parts: 1, estimated_parts: 1, estimated_cost: 0.8 });
    // The responsible-gambling lines come before the opt-out line (decision 061).
    expect(preview.json().message).toBe('Bet4Me: double bonus week 18+. Gambling is addictive. Play responsibly. STOP*456*9*5#');

    const send = () => t.as(admin, { method: 'POST', url: '/api/broadcasts/send', payload: { ...audience, idempotency_key: 'broadcast-key-0001' } });
    const [first, second] = [await send(), await send()];
    expect(first.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ info: 'This broadcast was already queued', broadcast: { id: first.json().broadcast.id } });
    const rows = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.broadcastId, first.json().broadcast.id));
    expect(rows.map((r) => [r.recipient, r.smsClass])).toEqual([['254766000001', 'promotional']]);
    const counts = first.json().broadcast.counts;
    expect(counts.queued + counts.held).toBe(1);

    const list = await t.as(admin, { method: 'GET', url: '/api/broadcasts' });
    expect(list.json()).toMatchObject({ total_records: 1, broadcasts: [{ recipients: 1, segment: 'clients-all' }] });
    expect((await t.as(staff, { method: 'POST', url: '/api/broadcasts/preview', payload: audience })).statusCode).toBe(403);
  });

  it('queues a double-clicked broadcast (two requests at once with one key) only once', async () => {
    await ref.person('client', 'Client Three', '254766000003');
    await giveMarketingConsent(t, '254766000003');
    const payload = { segment: 'clients-all', message: 'Bet4Me: weekend boost', idempotency_key: 'broadcast-key-0002' };
    const [a, b] = await Promise.all([
      t.as(admin, { method: 'POST', url: '/api/broadcasts/send', payload }),
      t.as(admin, { method: 'POST', url: '/api/broadcasts/send', payload }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const id = a.json().broadcast.id;
    expect(b.json().broadcast.id).toBe(id);
    expect([a.json().info, b.json().info].sort()).toEqual([smsSelfServiceTexts.broadcastAlreadyQueued, smsSelfServiceTexts.broadcastQueued].sort());
    const rows = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.broadcastId, id));
    const recipients = rows.map((r) => r.recipient);
    expect(new Set(recipients).size).toBe(recipients.length);
    expect(recipients).toContain('254766000003');
    expect(recipients).not.toContain('254766000002'); // opted out in the test above
  });

  it('names the missing category of a category segment', async () => {
    const res = await t.as(admin, { method: 'POST', url: '/api/broadcasts/preview', payload: { segment: 'category-lapsed', message: 'Come back' } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['bet_category_id', 'lapsed_days']);
  });
});

// Last: a client created here would change the broadcast counts above.
describe('Clients and keywords', () => {
  it("links a client's STOP to the client, and the client's page shows the state", async () => {
    const clientId = await ref.person('client', 'Texting Client', '254733000011');
    expect(await text('+254733000011', 'STOP', 'ATin-client-stop')).toBe(200);
    const [stored] = await t.deps.db.select().from(smsInbound).where(eq(smsInbound.providerId, 'ATin-client-stop'));
    expect(stored).toMatchObject({ clientId, subscriberId: null, keyword: 'STOP' });
    const state = await t.as(admin, { method: 'GET', url: `/api/sms/opt-out/client?client_id=${clientId}` });
    expect(state.statusCode).toBe(200);
    expect(state.json().opt_out).toMatchObject({ opted_out: true, history: [{ action: 'opt-out', source: 'keyword', scope: 'all' }] });
    // START puts them back.
    await text('+254733000011', 'START');
    const back = await t.as(admin, { method: 'GET', url: `/api/sms/opt-out/client?client_id=${clientId}` });
    expect(back.json().opt_out).toMatchObject({ opted_out: false });
  });
});
