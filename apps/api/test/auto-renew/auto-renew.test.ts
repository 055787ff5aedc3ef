import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { addDays, nairobiDayOf, PORTAL_COOKIE } from '@betdesk/contract';
import { mpesaPayments, smsMessages, standingOrders, subscriptions, tipsSubscribers } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { runAutoRenewal } from '../../src/modules/auto-renew/service.ts';
import type { TestApp } from '../helpers.ts';
import { c2b, confirm, declaredAdult, SANDBOX_PASSKEY, SECRET, darajaWorld, closeDarajaWorld, type Reference } from '../mpesa/fixtures.ts';
import { screen } from '../ussd/fixtures.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: Reference;
let admin: string;
let phoneNo = 711000400;

beforeAll(async () => {
  ({ t, fake, ref, admin } = await darajaWorld({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
  fake.c2bConfirmationUrl = `https://betdesk.example.com/api/hooks/c2b/confirmation/${SECRET}`;
});
afterAll(() => closeDarajaWorld({ t, fake }));

const ratiba = (on: boolean) => t.deps.db.execute(sql`update settings set value = ${on ? 'true' : 'false'}::jsonb where key = 'mpesa_ratiba_enabled'`);

/** A punter who paid the D2 weekly SMS package by paybill, signed in to the portal. */
async function weeklySubscriber() {
  phoneNo += 1;
  const phone = `254${phoneNo}`;
  await declaredAdult(t, phone); // declared 18+ before the first payment (decision 066)
  expect((await confirm(t, c2b({ MSISDN: phone, BillRefNumber: 'D2', TransAmount: '100.00', BusinessShortCode: '174379' }))).statusCode).toBe(200);
  const [subscriber] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
  const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, subscriber!.id));
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
  return { phone, subscriberId: subscriber!.id, subscription: sub!, cookie };
}

type Punter = Awaited<ReturnType<typeof weeklySubscriber>>;
const portal = (p: Punter, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: p.cookie }, ...(payload ? { payload } : {}) });
const turnOn = (p: Punter) => portal(p, 'POST', '/api/portal/auto-renew', { subscription_id: p.subscription.id });
const smsTo = (p: Punter, intent: string) =>
  t.deps.db.select().from(smsMessages).where(and(eq(smsMessages.recipient, p.phone), eq(smsMessages.intent, intent)));
const orderOf = async (id: number) => (await t.deps.db.select().from(standingOrders).where(eq(standingOrders.id, id)))[0]!;
const subscriptionsOf = (p: Punter) => t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, p.subscriberId));

/** A punter whose weekly automatic renewal the fake's customer approved. */
async function approved() {
  const p = await weeklySubscriber();
  const res = await turnOn(p);
  await fake.settled();
  const id = res.json().standing_order.id as number;
  return { p, id, order: await orderOf(id) };
}

describe('automatic renewal by M-Pesa Ratiba', () => {
  it('is shown nowhere and refused while the setting is off', async () => {
    await ratiba(false);
    const p = await weeklySubscriber();
    const me = (await portal(p, 'GET', '/api/portal/me')).json();
    expect(me.subscriptions[0]).toMatchObject({ subscription_id: p.subscription.id, auto_renew: null });
    expect((await turnOn(p)).statusCode).toBe(404);
    expect((await portal(p, 'DELETE', '/api/portal/auto-renew/1')).statusCode).toBe(404);
    const page = (await portal(p, 'GET', '/portal/account')).body;
    expect(page).not.toContain('auto-renew');
    const ussd = await screen(t, '2', `+${p.phone}`);
    expect(ussd).toMatch(/^END My subscriptions:/);
    expect(ussd).not.toMatch(/automatic/i);
    const staff = await t.as(admin, { method: 'GET', url: `/api/tips/subscribers/auto-renewals?subscriber_id=${p.subscriberId}` });
    expect(staff.statusCode).toBe(404);
    expect(fake.ratibaRequests).toHaveLength(0);
    await ratiba(true);
  });

  it('creates the standing order for the package price from the day the cover ends, with its account code; the approval is confirmed by SMS once', async () => {
    const p = await weeklySubscriber();
    const me = (await portal(p, 'GET', '/api/portal/me')).json();
    const start = nairobiDayOf(p.subscription.expiresAt);
    expect(me.subscriptions[0].auto_renew).toEqual({
      offer: { amount: 100, frequency: 'weekly', start_date: start, end_date: addDays(start, 365), declined_on: null },
    });

    const res = await turnOn(p);
    expect(res.statusCode).toBe(200);
    expect(res.json().standing_order).toMatchObject({ status: 'pending', next_date: start, amount: 100, frequency: 'weekly' });
    expect(fake.ratibaRequests.at(-1)).toMatchObject({
      Amount: '100',
      AccountReference: 'D2',
      Frequency: '3',
      PartyA: p.phone,
      BusinessShortCode: '174379',
      TransactionType: 'Standing Order Customer Pay Bill',
      StartDate: start.replace(/-/g, ''),
      CallBackURL: `https://betdesk.example.com/api/hooks/ratiba/${SECRET}`,
    });
    // Turning it on again is the same standing order.
    expect((await turnOn(p)).json().standing_order.id).toBe(res.json().standing_order.id);
    expect(fake.ratibaRequests.filter((r) => r.PartyA === p.phone)).toHaveLength(1);

    await fake.settled();
    const order = await orderOf(res.json().standing_order.id);
    expect(order.status).toBe('active');
    expect((await portal(p, 'GET', '/api/portal/me')).json().subscriptions[0].auto_renew.standing_order).toMatchObject({ status: 'active', next_date: start });
    // Daraja repeats its callback (and a wrong secret is a 404): nothing changes twice.
    const repeat = { ResponseHeader: { responseRefID: order.responseRefId, responseCode: '0' }, ResponseBody: { ResponseData: [{ Name: 'Status', Value: 'OKAY' }] } };
    expect((await t.app.inject({ method: 'POST', url: `/api/hooks/ratiba/${SECRET}`, payload: repeat })).json()).toEqual({ ResultCode: 0, ResultDesc: 'Accepted' });
    expect((await t.app.inject({ method: 'POST', url: '/api/hooks/ratiba/wrong-secret', payload: repeat })).statusCode).toBe(404);
    const on = await smsTo(p, 'auto-renew.on');
    expect(on).toHaveLength(1);
    expect(on[0]!.body).toContain('KES 100 every week');
    expect(on[0]!.body).toContain('*334#');
  });

  it('records a declined standing order and offers automatic renewal again', async () => {
    const p = await weeklySubscriber();
    fake.ratibaOutcomes.push({ resultCode: 1032, callback: true });
    const res = await turnOn(p);
    await fake.settled();
    expect(await orderOf(res.json().standing_order.id)).toMatchObject({ status: 'declined', resultCode: '1032' });
    expect((await portal(p, 'GET', '/api/portal/me')).json().subscriptions[0].auto_renew).toHaveProperty('offer');
    expect(await smsTo(p, 'auto-renew.on')).toHaveLength(0);
  });

  it('renews exactly once per run, however often and however concurrently M-Pesa confirms it', async () => {
    const { p, order } = await approved();
    const transId = `SO${String(phoneNo).slice(-6)}X1`;
    await Promise.all(Array.from({ length: 5 }, () => fake.runStandingOrder(order.responseRefId!, { transId })));
    await fake.runStandingOrder(order.responseRefId!, { transId });

    expect(await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.transId, transId))).toHaveLength(1);
    const subs = await subscriptionsOf(p);
    expect(subs).toHaveLength(2);
    const renewal = subs.find((s) => s.source === 'ratiba')!;
    expect(renewal).toMatchObject({ packageId: ref.d2Sms.id, amountCents: 10_000 });
    expect(renewal.startsAt.toISOString()).toBe(p.subscription.expiresAt.toISOString()); // stacked on the running cover
    expect(await smsTo(p, 'tips.receipt')).toHaveLength(2); // the first purchase's and the renewal's
    expect((await orderOf(order.id)).nextDate).toBe(addDays(order.nextDate, 7));
  });

  it('sees a failed run the day after its date and tells the subscriber once how to pay by hand', async () => {
    const { p, order } = await approved();
    expect(await fake.runStandingOrder(order.responseRefId!, { fails: true })).toBeNull();
    const dayAfter = addDays(order.nextDate, 1);
    const at = (hour: number) => new Date(`${dayAfter}T${String(hour).padStart(2, '0')}:00:00+03:00`);

    await runAutoRenewal(t.deps, at(7)); // before the reminder hour: not yet
    expect(await smsTo(p, 'auto-renew.missed')).toHaveLength(0);
    await runAutoRenewal(t.deps, at(10));
    await runAutoRenewal(t.deps, at(11));
    const told = await smsTo(p, 'auto-renew.missed');
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toContain('paybill 174379, account D2');
    expect(await orderOf(order.id)).toMatchObject({ status: 'active', missedDate: order.nextDate, nextDate: addDays(order.nextDate, 7) });
    expect(await subscriptionsOf(p)).toHaveLength(1);
  });

  it('stops an erased subscriber\'s standing order and keeps no phone on it', async () => {
    const { p, order } = await approved();
    const local = `0${p.phone.slice(3)}`;
    const res = await t.as(admin, { method: 'POST', url: '/api/privacy/erase', payload: { phone: local, reason: 'Asked by phone' } });
    expect(res.statusCode).toBe(200);
    expect(await orderOf(order.id)).toMatchObject({ status: 'stopped', phone: 'erased' });
    expect((await orderOf(order.id)).stoppedAt).not.toBeNull();
  });

  it('offers "Renew automatically" and "Stop automatic renewal" under My subscriptions on the USSD menu', async () => {
    const p = await weeklySubscriber();
    const phone = `+${p.phone}`;
    expect(await screen(t, '2', phone)).toMatch(/^CON My subscriptions:\nDaily 2 Odds SMS to .*\n1 Renew Daily 2 Odds SMS automatically\n0 Back$/);
    expect(await screen(t, '2*1', phone)).toMatch(
      /^END Check your phone: approve automatic renewal of KES 100 every week until \d{1,2} [A-Z][a-z]{2} \d{4} with your M-Pesa PIN\.$/,
    );
    // The PIN prompt waits for the session to end: the job sends the standing order afterwards.
    const [queued] = await t.deps.db.select().from(standingOrders).where(eq(standingOrders.subscriberId, p.subscriberId));
    expect(queued).toMatchObject({ status: 'requested', frequency: 'weekly' });
    await runAutoRenewal(t.deps, new Date(Date.now() + 60_000));
    await fake.settled();
    expect(await orderOf(queued!.id)).toMatchObject({ status: 'active' });

    expect(await screen(t, '2', phone)).toMatch(/renews automatically\n1 Stop automatic renewal Daily 2 Odds SMS\n0 Back$/);
    expect(await screen(t, '2*1', phone)).toMatch(/^END Automatic renewal is stopped\. Also cancel it in the M-Pesa app or \*334#/);
    expect(await orderOf(queued!.id)).toMatchObject({ status: 'stopped' });
    expect(await smsTo(p, 'auto-renew.stopped')).toHaveLength(1);
  });

  it('stops in one step, confirmed by SMS once, from the portal and from the back office', async () => {
    const { p, id } = await approved();
    const stopped = await portal(p, 'DELETE', `/api/portal/auto-renew/${id}`);
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json().standing_order.status).toBe('stopped');
    expect((await portal(p, 'DELETE', `/api/portal/auto-renew/${id}`)).statusCode).toBe(200);
    const sms = await smsTo(p, 'auto-renew.stopped');
    expect(sms).toHaveLength(1);
    expect(sms[0]!.body).toContain('*334#');

    const other = await approved();
    expect((await portal(p, 'DELETE', `/api/portal/auto-renew/${other.id}`)).statusCode).toBe(404); // not this phone's
    const listed = await t.as(admin, { method: 'GET', url: `/api/tips/subscribers/auto-renewals?subscriber_id=${other.p.subscriberId}` });
    expect(listed.json().standing_orders[0]).toMatchObject({ id: other.id, status: 'active', amount: 100, package: 'Daily 2 Odds SMS weekly' });
    const byStaff = await t.as(admin, { method: 'POST', url: '/api/tips/subscribers/auto-renewals/stop', payload: { standing_order_id: other.id } });
    expect(byStaff.statusCode).toBe(200);
    expect(await orderOf(other.id)).toMatchObject({ status: 'stopped' });
    expect(await smsTo(other.p, 'auto-renew.stopped')).toHaveLength(1);
  });
});
