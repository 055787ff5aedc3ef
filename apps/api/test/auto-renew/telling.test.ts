import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { addDays, nairobiDayOf, PORTAL_COOKIE } from '@betdesk/contract';
import { smsMessages, standingOrders, subscriptions, tipsSubscribers } from '../../src/db/schema/index.ts';
import { customerDate } from '../../src/customer-texts/format.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { runSubscriptionExpiry } from '../../src/modules/subscriptions/expiry.ts';
import type { TestApp } from '../helpers.ts';
import { c2b, confirm, declaredAdult, SANDBOX_PASSKEY, SECRET, darajaWorld, closeDarajaWorld } from '../mpesa/fixtures.ts';
import { screen } from '../ussd/fixtures.ts';

/*
 * What a subscriber on automatic renewal (M-Pesa Ratiba, decision 042) is told: no "renew by
 * M-Pesa" reminder while a standing order renews them (it would invite a second payment), a
 * declined standing order by SMS and on the portal, and the standing order's end wherever it shows.
 */

let t: TestApp;
let fake: FakeDaraja;
let admin: string;
let phoneNo = 711000800;

beforeAll(async () => {
  ({ t, fake, admin } = await darajaWorld({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
  await t.deps.db.execute(sql`update settings set value = 'true'::jsonb where key = 'mpesa_ratiba_enabled'`);
});
afterAll(() => closeDarajaWorld({ t, fake }));

/** A punter who paid the D2 weekly SMS package by paybill, reading in `language`, signed in to the portal. */
async function weeklySubscriber(language: 'en' | 'sw' = 'en') {
  phoneNo += 1;
  const phone = `254${phoneNo}`;
  await screen(t, language === 'en' ? '6*1' : '6*2', `+${phone}`);
  await declaredAdult(t, phone); // declared 18+ before paying (decision 066)
  expect((await confirm(t, c2b({ MSISDN: phone, BillRefNumber: 'D2', TransAmount: '100.00', BusinessShortCode: '174379' }))).statusCode).toBe(200);
  const [subscriber] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
  const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, subscriber!.id));
  const local = `0${phone.slice(3)}`;
  await t.app.inject({ method: 'POST', url: '/api/portal/auth/request-code', payload: { phone: local } });
  const code = (await smsTo(phone, 'portal.sign-in-code')).at(-1)!.body;
  const verified = await t.app.inject({ method: 'POST', url: '/api/portal/auth/verify', payload: { phone: local, code: /\b(\d{6})\b/.exec(code)![1] } });
  const cookie = `${PORTAL_COOKIE}=${verified.cookies.find((c) => c.name === PORTAL_COOKIE)!.value}`;
  return { phone, subscriberId: subscriber!.id, subscription: sub!, cookie };
}

type Punter = Awaited<ReturnType<typeof weeklySubscriber>>;
const smsTo = (phone: string, intent: string) =>
  t.deps.db.select().from(smsMessages).where(and(eq(smsMessages.recipient, phone), eq(smsMessages.intent, intent))).orderBy(smsMessages.id);
const portal = (p: Punter, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: p.cookie }, ...(payload ? { payload } : {}) });
const turnOn = async (p: Punter) => {
  const res = await portal(p, 'POST', '/api/portal/auto-renew', { subscription_id: p.subscription.id });
  await fake.settled();
  return res;
};
const orderOf = async (p: Punter) =>
  (await t.deps.db.select().from(standingOrders).where(eq(standingOrders.subscriberId, p.subscriberId)).orderBy(desc(standingOrders.id)))[0]!;
/** The subscription expires within the day: the expiry job's reminder is due. */
const expiringTomorrow = (p: Punter) =>
  t.deps.db.execute(sql`update subscriptions set expires_at = now() + interval '12 hours' where subscriber_id = ${p.subscriberId}`);

describe('the expiry reminder of a subscriber on automatic renewal', () => {
  it('is not sent while an active standing order renews the subscription, and says on the portal when it renews', async () => {
    const p = await weeklySubscriber();
    expect((await turnOn(p)).statusCode).toBe(200);
    const order = await orderOf(p);
    expect(order.status).toBe('active');
    await expiringTomorrow(p);
    await runSubscriptionExpiry(t.deps.db);
    expect(await smsTo(p.phone, 'subscription.reminder')).toHaveLength(0);

    const page = (await portal(p, 'GET', '/portal/account')).body;
    expect(page).toContain(`renews automatically on ${customerDate(order.nextDate, 'en')}`);
  });

  it('is sent once the standing order is stopped before the expiry', async () => {
    const p = await weeklySubscriber();
    await turnOn(p);
    await expiringTomorrow(p);
    await runSubscriptionExpiry(t.deps.db);
    expect(await smsTo(p.phone, 'subscription.reminder')).toHaveLength(0);

    expect((await portal(p, 'DELETE', `/api/portal/auto-renew/${(await orderOf(p)).id}`)).statusCode).toBe(200);
    await runSubscriptionExpiry(t.deps.db);
    await runSubscriptionExpiry(t.deps.db);
    const sent = await smsTo(p.phone, 'subscription.reminder');
    expect(sent).toHaveLength(1);
    // A promotional text: the responsible-gambling lines follow the wording (decision 061).
    expect(sent[0]!.body).toMatch(/Renew by M-Pesa to keep receiving it\. 18\+\. Gambling is addictive\. Play responsibly\.$/);
  });

  it('is still sent to a subscriber whose standing order is only waiting for the PIN or was declined', async () => {
    const p = await weeklySubscriber();
    fake.ratibaOutcomes.push({ resultCode: 1032, callback: true });
    await turnOn(p);
    expect((await orderOf(p)).status).toBe('declined');
    await expiringTomorrow(p);
    await runSubscriptionExpiry(t.deps.db);
    expect(await smsTo(p.phone, 'subscription.reminder')).toHaveLength(1);
  });
});

describe('a declined standing order', () => {
  it('tells the punter by SMS in their language, once, and on the portal beside the offer to turn it on again', async () => {
    const p = await weeklySubscriber('sw');
    fake.ratibaOutcomes.push({ resultCode: 1032, callback: true });
    await turnOn(p);
    const order = await orderOf(p);
    expect(order).toMatchObject({ status: 'declined', resultCode: '1032' });
    // Daraja repeats its callback: nothing is told twice.
    const repeat = { ResponseHeader: { responseRefID: order.responseRefId, responseCode: '1032' } };
    await t.app.inject({ method: 'POST', url: `/api/hooks/ratiba/${SECRET}`, payload: repeat });

    const told = await smsTo(p.phone, 'auto-renew.declined');
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toBe(
      'Ombi lako la kulipia Daily 2 Odds SMS weekly kiotomatiki limekataliwa kwenye M-Pesa: hakuna pesa itakayokatwa kiotomatiki. Kuwasha tena, tumia Akaunti yangu kwenye https://betdesk.example.com/portal/account.',
    );
    expect(told[0]!.smsClass).toBe('transactional');
    expect(await smsTo(p.phone, 'auto-renew.on')).toHaveLength(0);

    const today = nairobiDayOf(new Date());
    const me = (await portal(p, 'GET', '/api/portal/me')).json();
    expect(me.subscriptions[0].auto_renew.offer).toMatchObject({ declined_on: today });
    const page = (await portal(p, 'GET', '/portal/account')).body;
    expect(page).toContain(`Ombi lako la kulipia kiotomatiki lilikataliwa kwenye M-Pesa tarehe ${customerDate(today, 'sw')}: hakuna pesa itakayokatwa.`);
    expect(page).toContain('Washa kulipia kiotomatiki');
  });

  it('is no longer said once a new standing order is approved', async () => {
    const p = await weeklySubscriber();
    fake.ratibaOutcomes.push({ resultCode: 1032, callback: true });
    await turnOn(p);
    await turnOn(p);
    expect((await orderOf(p)).status).toBe('active');
    const page = (await portal(p, 'GET', '/portal/account')).body;
    expect(page).not.toContain('data-declined');
    expect(page).not.toContain('was declined');
  });
});

describe("the standing order's end", () => {
  it('is shown on the offer, My account, the approval SMS, the USSD answer and the back office', async () => {
    const p = await weeklySubscriber();
    const start = nairobiDayOf(p.subscription.expiresAt);
    const end = addDays(start, 365);
    const offered = (await portal(p, 'GET', '/portal/account')).body;
    expect(offered).toContain(`KES 100 every week, from ${customerDate(start, 'en')} until ${customerDate(end, 'en')}.`);

    await turnOn(p);
    const order = await orderOf(p);
    expect(order.endDate).toBe(end);
    const page = (await portal(p, 'GET', '/portal/account')).body;
    expect(page).toContain(`Next payment: KES 100 on ${customerDate(start, 'en')} (every week until ${customerDate(end, 'en')}).`);
    expect((await smsTo(p.phone, 'auto-renew.on'))[0]!.body).toContain(`KES 100 every week until ${customerDate(end, 'en')} by M-Pesa Ratiba`);
    expect((await portal(p, 'GET', '/api/portal/me')).json().subscriptions[0].auto_renew.standing_order).toMatchObject({ end_date: end });

    const staff = await t.as(admin, { method: 'GET', url: `/api/tips/subscribers/auto-renewals?subscriber_id=${p.subscriberId}` });
    expect(staff.json().standing_orders[0]).toMatchObject({ end_date: end });
  });

  it('is said on the USSD answer in Kiswahili months', async () => {
    const p = await weeklySubscriber('sw');
    const end = customerDate(addDays(nairobiDayOf(p.subscription.expiresAt), 365), 'sw');
    const answer = await screen(t, '2*1', `+${p.phone}`);
    expect(answer).toBe(`END Angalia simu yako: kubali kulipia kiotomatiki KES 100 kila wiki hadi ${end} kwa PIN yako ya M-Pesa.`);
  });
});
