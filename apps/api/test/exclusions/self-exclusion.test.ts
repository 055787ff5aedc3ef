import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { PORTAL_COOKIE } from '@betdesk/contract';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { auditLog, bets, mpesaPayments, selfExclusions, smsMessages, standingOrders, subscriptions, tipsSubscribers } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { tellEndedExclusions } from '../../src/modules/exclusions/service.ts';
import { queueSms } from '../../src/modules/sms/service.ts';
import { ADMIN, giveMarketingConsent, type TestApp } from '../helpers.ts';
import { c2b, confirm, declaredAdult, SANDBOX_PASSKEY, SECRET, darajaWorld, closeDarajaWorld, type Reference } from '../mpesa/fixtures.ts';
import { screen } from '../ussd/fixtures.ts';

// Issue 49, item 1 (self-exclusion) and the under-18 mark of item 2 (decision 059).
let t: TestApp;
let fake: FakeDaraja;
let ref: Reference;
let admin: string;
let agent: string;
let phoneNo = 712000500;

beforeAll(async () => {
  ({ t, fake, ref, admin } = await darajaWorld({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
  await t.addUser({ email: 'agent@betdesk.test' });
  agent = await t.tokenFor('agent@betdesk.test');
  await t.deps.db.execute(sql`update settings set value = 'true'::jsonb where key = 'mpesa_ratiba_enabled'`);
}, 60_000);
afterAll(() => closeDarajaWorld({ t, fake }));

const setting = (key: string, on: boolean) => t.deps.db.execute(sql`update settings set value = ${on ? 'true' : 'false'}::jsonb where key = ${key}`);

const pay = (phone: string, account = 'D2', amount = '100.00') => {
  const body = c2b({ MSISDN: phone, BillRefNumber: account, TransAmount: amount, BusinessShortCode: '174379' });
  return confirm(t, body).then(async (res) => {
    expect(res.statusCode).toBe(200);
    return (await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.transId, body.TransID as string)))[0]!;
  });
};

/** A punter who paid the D2 weekly SMS package, signed in to the portal, with marketing consent. */
async function punter() {
  phoneNo += 1;
  const phone = `254${phoneNo}`;
  // Declared 18+ on the portal before the first paybill payment (decision 066).
  await declaredAdult(t, phone);
  await pay(phone);
  const [subscriber] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
  const local = `0${phone.slice(3)}`;
  await t.app.inject({ method: 'POST', url: '/api/portal/auth/request-code', payload: { phone: local } });
  const [code] = await t.deps.db
    .select({ body: smsMessages.body })
    .from(smsMessages)
    .where(and(eq(smsMessages.recipient, phone), eq(smsMessages.intent, 'portal.sign-in-code')))
    .orderBy(desc(smsMessages.id))
    .limit(1);
  const verified = await t.app.inject({ method: 'POST', url: '/api/portal/auth/verify', payload: { phone: local, code: /\b(\d{6})\b/.exec(code!.body)![1] } });
  const cookie = `${PORTAL_COOKIE}=${verified.cookies.find((c) => c.name === PORTAL_COOKIE)!.value}`;
  await giveMarketingConsent(t, phone);
  return { phone, local, subscriberId: subscriber!.id, cookie };
}
type Punter = Awaited<ReturnType<typeof punter>>;

const portal = (p: Punter, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: p.cookie }, ...(payload ? { payload } : {}) });

const inboundSms = (from: string, text: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/hooks/sms/inbound/${SECRET}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ from: `+${from}`, text, id: `ATin-${Math.random().toString(36).slice(2)}` }).toString(),
  });

const smsTo = (phone: string, intent: string) => t.deps.db.select().from(smsMessages).where(and(eq(smsMessages.recipient, phone), eq(smsMessages.intent, intent)));

/** Every kind of promotional send the outbox knows, to one phone: which of them were queued. */
async function promotionsQueued(phone: string): Promise<string[]> {
  const tag = Math.random().toString(36).slice(2);
  const sends = [
    { intent: 'broadcast.offer', smsClass: 'promotional' as const },
    { intent: 'subscription.reminder', smsClass: 'service' as const },
    { intent: 'payment.recovery-reminder', smsClass: 'transactional' as const },
    { intent: 'auto-renew.missed', smsClass: 'transactional' as const },
  ];
  const queued: string[] = [];
  for (const s of sends) {
    const id = await queueSms(t.deps.db, { ...s, dedupeKey: `${s.intent}:${tag}:${phone}`, to: phone, body: 'Hello', createdBy: null });
    if (id !== null) queued.push(s.intent);
  }
  return queued;
}

/** A standing order for the punter's D2 package, active as Ratiba approved it. */
async function activeOrder(p: Punter) {
  const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, p.subscriberId));
  const res = await portal(p, 'POST', '/api/portal/auto-renew', { subscription_id: sub!.id });
  expect(res.statusCode).toBe(200);
  await fake.settled();
  return res.json().standing_order.id as number;
}
const orderStatus = async (id: number) => (await t.deps.db.select().from(standingOrders).where(eq(standingOrders.id, id)))[0]!.status;

/** What must hold of a person right after they excluded themselves, whatever the channel. */
async function expectExcluded(p: Punter, orderId: number) {
  expect(await promotionsQueued(p.phone)).toEqual([]);
  expect(await orderStatus(orderId)).toBe('stopped');
  const subsBefore = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, p.subscriberId));
  const kept = await pay(p.phone);
  expect(kept).toMatchObject({ status: 'unclaimed', subscriberId: null });
  expect(kept.warning).toMatch(/excluded themselves/);
  expect(await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, p.subscriberId))).toHaveLength(subsBefore.length);
  // Told once: a second payment is kept too, without a second SMS.
  await pay(p.phone);
  expect(await smsTo(p.phone, 'sale.refused')).toHaveLength(1);
  // No new sale is asked for, no new standing order made.
  expect((await portal(p, 'POST', '/api/portal/purchase', { package_id: ref.d2Sms.id, adult: true })).statusCode).toBe(409);
  const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, p.subscriberId));
  expect((await portal(p, 'POST', '/api/portal/auto-renew', { subscription_id: sub!.id })).statusCode).toBe(409);
  const pushes = fake.pushes.length;
  const buyForm = await t.app.inject({
    method: 'POST',
    url: '/portal/buy',
    headers: { cookie: p.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `package_id=${ref.d2Sms.id}`,
  });
  expect(buyForm.body).toContain('Nothing can be sold to this number');
  expect(await screen(t, `1*1*1*1`, `+${p.phone}`)).toMatch(/^END Nothing can be sold to this number/);
  expect(fake.pushes.length).toBe(pushes);
  // The kept payment is refundable through the two-person refund.
  const refund = await t.as(admin, { method: 'POST', url: '/api/refunds', payload: { payment_id: kept.id, amount: 100, reason: 'policy', note: 'Self-excluded payer', method: 'reversal' } });
  expect(refund.statusCode).toBe(200);
}

describe('self-exclusion', () => {
  it('on the portal stops every promotional send, the standing order, every sale, and tells once of a kept payment', async () => {
    const p = await punter();
    expect(await promotionsQueued(p.phone)).toHaveLength(4);
    const order = await activeOrder(p);
    const res = await portal(p, 'POST', '/api/portal/exclusion', { period: '90' });
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toMatch(/excluded until/);
    expect(await smsTo(p.phone, 'exclusion.started')).toHaveLength(1);
    await expectExcluded(p, order);
    // The paid subscription runs out: it is not shortened.
    const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, p.subscriberId));
    expect(sub!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("on the portal's My account page, by its form, which says it cannot be ended early", async () => {
    const p = await punter();
    const page = (await portal(p, 'GET', '/portal/account')).body;
    expect(page).toContain('action="/portal/exclusion"');
    expect(page).toContain('cannot be ended early');
    const res = await t.app.inject({
      method: 'POST',
      url: '/portal/exclusion',
      headers: { cookie: p.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'period=forever&understood=yes',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('You are excluded for good');
    const [row] = await t.deps.db.select().from(selfExclusions).where(eq(selfExclusions.phone, p.phone));
    expect(row).toMatchObject({ period: 'forever', channel: 'portal' });
  });

  it('by SMS keyword (EXCLUDE 30, JIEPUSHE MILELE) does the same; without a period it says how', async () => {
    const p = await punter();
    const order = await activeOrder(p);
    expect((await inboundSms(p.phone, 'exclude')).statusCode).toBe(200);
    expect(await smsTo(p.phone, 'sms.keyword-reply')).toEqual([expect.objectContaining({ body: expect.stringContaining('EXCLUDE 30') })]);
    expect(await t.deps.db.select().from(selfExclusions).where(eq(selfExclusions.phone, p.phone))).toHaveLength(0);
    expect((await inboundSms(p.phone, 'EXCLUDE 30')).statusCode).toBe(200);
    await expectExcluded(p, order);
    const q = await punter();
    await inboundSms(q.phone, 'Jiepushe milele');
    const [row] = await t.deps.db.select().from(selfExclusions).where(eq(selfExclusions.phone, q.phone));
    expect(row).toMatchObject({ period: 'forever', channel: 'sms', endsAt: null });
  });

  it('by USSD (menu entry 7) does the same', async () => {
    const p = await punter();
    const order = await activeOrder(p);
    expect(await screen(t, '7', `+${p.phone}`)).toMatch(/^CON Self-exclusion/);
    expect(await screen(t, '7*3', `+${p.phone}`)).toMatch(/^END You are excluded until/);
    const [row] = await t.deps.db.select().from(selfExclusions).where(eq(selfExclusions.phone, p.phone));
    expect(row).toMatchObject({ period: '180', channel: 'ussd' });
    await expectExcluded(p, order);
  });

  it('by staff on request, audited with the channel; the register (admins only) counts them', async () => {
    const p = await punter();
    const order = await activeOrder(p);
    const res = await t.as(agent, { method: 'POST', url: '/api/exclusions', payload: { phone: p.local, period: '180', channel: 'staff', note: 'Asked on the phone' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().exclusion).toMatchObject({ period: '180', channel: 'staff', running: true });
    const [entry] = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'exclusion.record'), eq(auditLog.entityId, String(res.json().exclusion.id))));
    expect(entry!.after).toMatchObject({ period: '180', channel: 'staff' });
    await expectExcluded(p, order);
    expect((await t.as(agent, { method: 'GET', url: '/api/exclusions' })).statusCode).toBe(403);
    const register = await t.as(admin, { method: 'GET', url: `/api/exclusions?search=${p.local}` });
    expect(register.statusCode).toBe(200);
    expect(register.json().total_records).toBe(1);
    expect(register.json().counts.running).toBeGreaterThanOrEqual(4);
    expect(register.json().counts.by_channel).toMatchObject({ portal: 2, ussd: 1, staff: 1, sms: 2 });
    expect((await t.as(admin, { method: 'POST', url: '/api/exclusions', payload: { phone: p.local, period: '45' } })).statusCode).toBe(422);
  });

  it('blocks a new Bet4Me bet for an excluded client; their open bet runs to its result', async () => {
    phoneNo += 1;
    const phone = `254${phoneNo}`;
    const clientId = await ref.person('client', 'Excluded Client', phone);
    // The weekly plan, paid from the client's phone: an active client.
    expect((await pay(phone, String(clientId), '1000.00')).status).toBe('claimed');
    const open = await t.as(admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, stake: 100, description: 'Before' } });
    expect(open.statusCode).toBe(200);
    await t.as(admin, { method: 'POST', url: '/api/exclusions', payload: { phone, period: '30' } });
    const refused = await t.as(admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, stake: 100, description: 'After' } });
    expect(refused.statusCode).toBe(409);
    expect(await t.deps.db.select().from(bets).where(eq(bets.clientId, clientId))).toHaveLength(1);
    const closed = await t.as(admin, { method: 'POST', url: '/api/bets/update', payload: { bet_id: open.json().bet_id, profit: 50 } });
    expect(closed.statusCode).toBe(200);
  });

  it('cannot be lifted or shortened early by anyone', async () => {
    const p = await punter();
    await portal(p, 'POST', '/api/portal/exclusion', { period: '30' });
    const [row] = await t.deps.db.select().from(selfExclusions).where(eq(selfExclusions.phone, p.phone));
    // No route ends one, for admins or the person.
    for (const [method, url] of [['DELETE', `/api/exclusions/${row!.id}`], ['PUT', `/api/exclusions/${row!.id}`], ['POST', '/api/exclusions/end']] as const) {
      expect((await t.as(admin, { method, url, payload: { ends_at: new Date().toISOString() } })).statusCode).toBeGreaterThanOrEqual(404);
    }
    expect((await portal(p, 'POST', '/api/portal/exclusion', { period: 'none' })).statusCode).toBe(422);
    // Nor the database itself.
    await expect(t.deps.db.execute(sql`update self_exclusions set ends_at = now() where id = ${row!.id}`)).rejects.toThrow();
    await expect(t.deps.db.execute(sql`delete from self_exclusions where id = ${row!.id}`)).rejects.toThrow();
    expect(await promotionsQueued(p.phone)).toEqual([]);
  });

  it('at its end tells the person once and restarts nothing', async () => {
    const p = await punter();
    const order = await activeOrder(p);
    await portal(p, 'POST', '/api/portal/exclusion', { period: '30' });
    // An exclusion that ran its course (written as it would stand 31 days on).
    await t.deps.db.execute(sql`alter table self_exclusions disable trigger self_exclusions_fixed`);
    await t.deps.db.execute(sql`update self_exclusions set starts_at = now() - interval '31 days', ends_at = now() - interval '1 day' where phone = ${p.phone}`);
    await t.deps.db.execute(sql`alter table self_exclusions enable trigger self_exclusions_fixed`);
    expect(await tellEndedExclusions(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await tellEndedExclusions(t.deps)).toBe(0);
    expect(await smsTo(p.phone, 'exclusion.ended')).toHaveLength(1);
    expect(await orderStatus(order)).toBe('stopped');
    // Sales may be made again, but nothing was bought or renewed by itself.
    const paid = await pay(p.phone);
    expect(paid.status).toBe('claimed');
  });

  it('blocks nothing while the setting rg_self_exclusion is off', async () => {
    const p = await punter();
    await portal(p, 'POST', '/api/portal/exclusion', { period: 'forever' });
    await setting('rg_self_exclusion', false);
    try {
      expect(await promotionsQueued(p.phone)).toHaveLength(4);
      expect((await pay(p.phone)).status).toBe('claimed');
    } finally {
      await setting('rg_self_exclusion', true);
    }
    expect(await promotionsQueued(p.phone)).toEqual([]);
  });
});

describe('the under-18 mark', () => {
  it('is audited, blocks every sale (payment kept for a refund, portal purchase refused) and obeys rg_under_18_block', async () => {
    const p = await punter();
    const marked = await t.as(agent, { method: 'POST', url: '/api/exclusions/under-18', payload: { phone: p.local, note: 'Mother called with his birth certificate' } });
    expect(marked.statusCode).toBe(200);
    const [entry] = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'under-18.mark'), eq(auditLog.entityId, sha256Hex(p.phone))));
    expect(entry).toBeDefined();
    expect((await t.as(agent, { method: 'POST', url: '/api/exclusions/under-18', payload: { phone: p.local, note: 'Again' } })).statusCode).toBe(409);
    const kept = await pay(p.phone);
    expect(kept.status).toBe('unclaimed');
    expect(kept.warning).toMatch(/under 18/);
    expect((await smsTo(p.phone, 'sale.refused'))[0]!.body).toMatch(/under 18/);
    expect((await portal(p, 'POST', '/api/portal/purchase', { package_id: ref.d2Sms.id, adult: true })).statusCode).toBe(409);
    await setting('rg_under_18_block', false);
    try {
      expect((await pay(p.phone)).status).toBe('claimed');
    } finally {
      await setting('rg_under_18_block', true);
    }
  });
});

describe('the safer-gambling report', () => {
  it('counts exclusions started and ended per month and sales refused by reason, with a CSV', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/reports/safer-gambling' });
    expect(res.statusCode).toBe(200);
    const { total, rows } = res.json();
    expect(total.exclusions_started).toBeGreaterThanOrEqual(7);
    expect(total.exclusions_ended).toBeGreaterThanOrEqual(1);
    expect(total.sales_refused_excluded).toBeGreaterThanOrEqual(8);
    expect(total.sales_refused_under_18).toBeGreaterThanOrEqual(2);
    expect(rows.at(-1).month).toMatch(/^\d{4}-\d{2}$/);
    const csv = await t.as(admin, { method: 'GET', url: '/api/reports/safer-gambling/export' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\n')[0]).toContain('Exclusions started');
    expect((await t.as(agent, { method: 'GET', url: '/api/reports/safer-gambling' })).statusCode).toBe(403);
  });
});

// Keep the roles honest: ADMIN is the admin category.
void ADMIN;

describe("the person's data", () => {
  it('exports their exclusions and under-18 mark; erasure keeps the exclusion by the number\'s hash', async () => {
    phoneNo += 1;
    const phone = `254${phoneNo}`;
    await t.as(admin, { method: 'POST', url: '/api/exclusions', payload: { phone, period: 'forever', note: 'In person' } });
    await t.as(admin, { method: 'POST', url: '/api/exclusions/under-18', payload: { phone, note: 'ID seen' } });
    const subject = await t.as(admin, { method: 'GET', url: `/api/privacy/subject?phone=${phone}` });
    expect(subject.statusCode).toBe(200);
    expect(subject.json().exclusions).toEqual([
      expect.objectContaining({ kind: 'self_exclusion', period: 'forever', channel: 'staff', phone }),
      expect.objectContaining({ kind: 'under_18_mark', note: 'ID seen', phone }),
    ]);
    expect((await t.as(admin, { method: 'POST', url: '/api/privacy/erase', payload: { phone, reason: 'Asked to be forgotten' } })).statusCode).toBe(200);
    const [row] = await t.deps.db.select().from(selfExclusions).where(eq(selfExclusions.phoneHash, sha256Hex(phone)));
    expect(row).toMatchObject({ phone: null, note: null, period: 'forever' });
    const after = await t.as(admin, { method: 'GET', url: `/api/privacy/subject?phone=${phone}` });
    expect(after.json().exclusions).toEqual([expect.objectContaining({ kind: 'self_exclusion', phone: null }), expect.objectContaining({ kind: 'under_18_mark', phone: null })]);
  });
});

describe('a sale asked before the exclusion', () => {
  it('leaves excluded people out of the broadcast preview\'s count, by the rule the send uses (decision 066)', async () => {
    const p = await punter();
    const audience = { message: 'Offer of the week', segment: 'category-active', bet_category_id: ref.d2.id };
    const before = (await t.as(admin, { method: 'POST', url: '/api/broadcasts/preview', payload: audience })).json();
    expect((await portal(p, 'POST', '/api/portal/exclusion', { period: '30' })).statusCode).toBe(200);
    const after = (await t.as(admin, { method: 'POST', url: '/api/broadcasts/preview', payload: audience })).json();
    expect(after.self_excluded).toBe(before.self_excluded + 1);
    expect(after.recipients).toBe(before.recipients - 1);
    const sent = await t.as(admin, { method: 'POST', url: '/api/broadcasts/send', payload: { ...audience, idempotency_key: `excluded-preview-${p.phone}-0000` } });
    expect(sent.statusCode).toBe(200);
    const queued = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.broadcastId, sent.json().broadcast.id));
    expect(queued.map((m) => m.recipient)).not.toContain(p.phone);
    expect(queued).toHaveLength(after.recipients);
  });

  it('keeps an STK payment asked before the exclusion and paid after it, and tells once (decision 066)', async () => {
    const p = await punter();
    fake.outcomes.push({ resultCode: 0, callback: true, hold: true });
    const asked = await portal(p, 'POST', '/api/portal/purchase', { package_id: ref.d2Sms.id, adult: true });
    expect(asked.statusCode).toBe(200);
    await fake.settled();
    const [checkout] = [...fake.heldCallbacks.keys()];
    expect((await portal(p, 'POST', '/api/portal/exclusion', { period: '30' })).statusCode).toBe(200);
    const subsBefore = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, p.subscriberId));
    await fake.releaseCallback(checkout!);
    const [kept] = await t.deps.db.select().from(mpesaPayments).where(and(eq(mpesaPayments.senderPhone, p.phone), eq(mpesaPayments.source, 'stk')));
    expect(kept).toMatchObject({ status: 'unclaimed', subscriberId: null });
    expect(kept!.warning).toMatch(/excluded themselves/);
    expect(await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, p.subscriberId))).toHaveLength(subsBefore.length);
    expect(await smsTo(p.phone, 'sale.refused')).toHaveLength(1);
  });
});
