import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { addDays } from '@betdesk/contract';
import { auditLog, smsMessages, standingOrders, subscriptionPauses, subscriptions, tipsSubscribers } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { countSmsRecipients } from '../../src/modules/tips-sms/queries.ts';
import { saleAfterPause } from '../../src/modules/pauses/service.ts';
import { customerDateTime } from '../../src/customer-texts/format.ts';
import { signInToPortal, type TestApp } from '../helpers.ts';
import { c2b, confirm, declaredAdult, SECRET, ratibaWorld, closeDarajaWorld, type Reference } from '../mpesa/fixtures.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: Reference;
let admin: string;
let phoneNo = 711000900;
const DAY = 86_400_000;

beforeAll(async () => {
  ({ t, fake, ref, admin } = await ratibaWorld());
});
afterAll(() => closeDarajaWorld({ t, fake }));

/** A punter who paid the D2 weekly SMS package by paybill, signed in to the portal. */
async function weeklySubscriber(times = 1) {
  phoneNo += 1;
  const phone = `254${phoneNo}`;
  await declaredAdult(t, phone);
  for (let i = 0; i < times; i += 1) {
    expect((await confirm(t, c2b({ MSISDN: phone, BillRefNumber: 'D2', TransAmount: '100.00', BusinessShortCode: '174379' }))).statusCode).toBe(200);
  }
  const [subscriber] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
  const subs = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, subscriber!.id)).orderBy(subscriptions.startsAt);
  const local = `0${phone.slice(3)}`;
  const cookie = await signInToPortal(t, local, '127.0.0.1');
  return { phone, local, subscriberId: subscriber!.id, subscription: subs[0]!, subscriptions: subs, cookie };
}
type Punter = Awaited<ReturnType<typeof weeklySubscriber>>;

const pause = (p: Punter, days: number, subscriptionId = p.subscription.id) =>
  t.app.inject({ method: 'POST', url: '/api/portal/pause', headers: { cookie: p.cookie }, payload: { subscription_id: subscriptionId, days } });
const subscriptionById = async (id: number) => (await t.deps.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const smsTo = (p: Punter, intent: string) => t.deps.db.select().from(smsMessages).where(and(eq(smsMessages.recipient, p.phone), eq(smsMessages.intent, intent)));
const recipientsOfD2 = () => countSmsRecipients(t.deps.db, ref.d2Sms.betCategoryId);

describe('pausing a weekly or monthly subscription', () => {
  it('moves its end and the renewal stacked after it, stops its tips for the pause, audits it and confirms it by SMS', async () => {
    const before = await recipientsOfD2();
    const p = await weeklySubscriber(2);
    expect(await recipientsOfD2()).toBe(before + 1);
    const [first, second] = p.subscriptions;
    const res = await pause(p, 3);
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toMatch(/^Paused for 3 days: no tips until /);
    expect(res.json().pause).toMatchObject({ subscription_id: first!.id, days: 3, standing_order_next_date: null });

    expect((await subscriptionById(first!.id)).expiresAt.getTime()).toBe(first!.expiresAt.getTime() + 3 * DAY);
    const renewal = await subscriptionById(second!.id);
    expect(renewal.startsAt.getTime()).toBe(second!.startsAt.getTime() + 3 * DAY);
    expect(renewal.expiresAt.getTime()).toBe(second!.expiresAt.getTime() + 3 * DAY);

    // No tips of D2 by SMS go to the phone while the pause runs.
    expect(await recipientsOfD2()).toBe(before);
    const [audited] = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'subscription.pause'), eq(auditLog.entityId, String(res.json().pause.id))));
    expect(audited).toMatchObject({ entity: 'subscription_pause', actorUserId: null });
    const told = await smsTo(p, 'subscription.paused');
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toMatch(/^Your .* tips are paused for 3 days, until /);

    // Once per period: the same subscription is not paused twice.
    const again = await pause(p, 1);
    expect(again.statusCode).toBe(409);
    expect(again.json().info).toBe('This subscription was paused once already. You can pause again after you renew.');
    expect((await subscriptionById(first!.id)).expiresAt.getTime()).toBe(first!.expiresAt.getTime() + 3 * DAY);
  });

  it('moves the due day of its automatic renewal with it', async () => {
    const p = await weeklySubscriber();
    const on = await t.app.inject({ method: 'POST', url: '/api/portal/auto-renew', headers: { cookie: p.cookie }, payload: { subscription_id: p.subscription.id } });
    await fake.settled();
    const id = on.json().standing_order.id as number;
    const [order] = await t.deps.db.select().from(standingOrders).where(eq(standingOrders.id, id));
    expect(order!.status).toBe('active');

    const res = await pause(p, 5);
    expect(res.statusCode).toBe(200);
    expect(res.json().pause.standing_order_next_date).toBe(addDays(order!.nextDate, 5));
    const [moved] = await t.deps.db.select().from(standingOrders).where(eq(standingOrders.id, id));
    expect(moved!.nextDate).toBe(addDays(order!.nextDate, 5));
    const [record] = await t.deps.db.select().from(subscriptionPauses).where(eq(subscriptionPauses.subscriptionId, p.subscription.id));
    expect(record).toMatchObject({ standingOrderId: id, standingOrderNextBefore: order!.nextDate, standingOrderNextAfter: moved!.nextDate, via: 'portal' });
    expect((await smsTo(p, 'subscription.paused'))[0]!.body).toContain('*334#');
    // No sale after the pause yet.
    expect(await saleAfterPause(t.deps.db, record!.id)).toBeNull();
  });

  it('counts the first paid sale after a pause as the pause lever\'s in the retention split (decision 091)', async () => {
    const p = await weeklySubscriber();
    expect((await pause(p, 2)).statusCode).toBe(200);
    const [record] = await t.deps.db.select().from(subscriptionPauses).where(eq(subscriptionPauses.subscriptionId, p.subscription.id));
    // The pause over (its end moved into the past), the punter pays the week again.
    await t.deps.db.update(subscriptionPauses).set({ endsAt: new Date(Date.now() - DAY) }).where(eq(subscriptionPauses.id, record!.id));
    expect((await confirm(t, c2b({ MSISDN: p.phone, BillRefNumber: 'D2', TransAmount: '100.00', BusinessShortCode: '174379' }))).statusCode).toBe(200);
    const after = await saleAfterPause(t.deps.db, record!.id);
    expect(after).not.toBeNull();
    const today = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const res = await t.as(admin, { method: 'GET', url: `/api/reports/retention?from=${today}&to=${today}&group=day&group_by=lever` });
    expect(res.statusCode, res.body).toBe(200);
    const paused = res.json().groups.find((g: { key: string }) => g.key === 'pause');
    expect(paused?.lever_sales).toEqual({ sales: 1, income: 100, discount: 0, commission: 0 });
  });

  it('refuses more days than the setting allows, naming the field, and writes nothing', async () => {
    const p = await weeklySubscriber();
    const res = await pause(p, 8);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.days).toEqual(['You can pause for 1 to 7 days.']);
    expect((await pause(p, 0)).statusCode).toBe(422);
    expect((await subscriptionById(p.subscription.id)).expiresAt.getTime()).toBe(p.subscription.expiresAt.getTime());
    expect(await t.deps.db.select().from(subscriptionPauses).where(eq(subscriptionPauses.subscriptionId, p.subscription.id))).toHaveLength(0);
  });

  it('refuses another phone\'s subscription as not found', async () => {
    const p = await weeklySubscriber();
    const other = await weeklySubscriber();
    expect((await pause(p, 2, other.subscription.id)).statusCode).toBe(404);
  });

  it('offers no pause to a self-excluded person', async () => {
    const p = await weeklySubscriber();
    expect((await t.as(admin, { method: 'POST', url: '/api/exclusions', payload: { phone: p.local, period: '30' } })).statusCode).toBe(200);
    const res = await pause(p, 2);
    expect(res.statusCode).toBe(409);
    expect(res.json().info).toBe('This is not available while you are excluded from gambling.');
    expect(await t.deps.db.select().from(subscriptionPauses).where(eq(subscriptionPauses.subscriptionId, p.subscription.id))).toHaveLength(0);
  });

  it('pauses by SMS keyword (PAUSE 2 or SITISHA 2) and answers a refusal in words', async () => {
    const p = await weeklySubscriber();
    let n = 0;
    const text = (words: string) => {
      n += 1;
      return t.app.inject({
        method: 'POST',
        url: `/api/hooks/sms/inbound/${SECRET}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ from: `+${p.phone}`, to: '22384', text: words, id: `pause-${p.phone}-${n}`, date: '2026-12-03 10:00:00' }).toString(),
      });
    };
    expect((await text('pause 9')).statusCode).toBe(200);
    expect((await smsTo(p, 'sms.keyword-reply')).map((m) => m.body)).toEqual(['You can pause for 1 to 7 days.']);
    expect((await text('SITISHA 2')).statusCode).toBe(200);
    const [record] = await t.deps.db.select().from(subscriptionPauses).where(eq(subscriptionPauses.subscriptionId, p.subscription.id));
    expect(record).toMatchObject({ days: 2, via: 'sms' });
    expect((await subscriptionById(p.subscription.id)).expiresAt.getTime()).toBe(p.subscription.expiresAt.getTime() + 2 * DAY);
    expect(await smsTo(p, 'subscription.paused')).toHaveLength(1);
  });

  it('is off while the setting is 0', async () => {
    const p = await weeklySubscriber();
    await t.deps.db.execute(sql`update settings set value = '0'::jsonb where key = 'subscription_pause_max_days'`);
    try {
      expect((await pause(p, 2)).json().info).toBe('Pausing a subscription is not offered right now.');
    } finally {
      await t.deps.db.execute(sql`update settings set value = '7'::jsonb where key = 'subscription_pause_max_days'`);
    }
  });
});

describe("pausing on the portal's My account page (a form, no JavaScript needed)", () => {
  const account = (p: Punter) => t.app.inject({ method: 'GET', url: '/portal/account', headers: { cookie: p.cookie } });
  const submit = (p: Punter, form: string) =>
    t.app.inject({ method: 'POST', url: '/portal/pause', headers: { cookie: p.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: form });
  const dateTime = (d: Date, language: 'en' | 'sw' = 'en') => customerDateTime(d, language).replace(/&/g, '&amp;');

  it('offers each weekly subscription a labelled days field bounded by the setting, then shows the new end and the days without tips', async () => {
    const p = await weeklySubscriber();
    const page = (await account(p)).body;
    expect(page).toContain('action="/portal/pause"');
    expect(page).toContain(`<input type="hidden" name="subscription_id" value="${p.subscription.id}">`);
    expect(page).toContain(`<label for="pause-days-${p.subscription.id}">Pause my tips for how many days? 1 to 7</label>`);
    expect(page).toMatch(new RegExp(`<input id="pause-days-${p.subscription.id}" name="days" type="number" inputmode="numeric" min="1" max="7"`));

    const res = await submit(p, `subscription_id=${p.subscription.id}&days=3`);
    expect(res.statusCode).toBe(200);
    const [record] = await t.deps.db.select().from(subscriptionPauses).where(eq(subscriptionPauses.subscriptionId, p.subscription.id));
    expect(record).toMatchObject({ days: 3, via: 'portal' });
    const newEnd = (await subscriptionById(p.subscription.id)).expiresAt;
    expect(newEnd.getTime()).toBe(p.subscription.expiresAt.getTime() + 3 * DAY);
    expect(res.body).toMatch(/<p class="notice" role="status" data-testid="account-notice">Paused for 3 days: no tips until [^<]+\. Your subscription now ends [^<]+\. We sent you an SMS\.<\/p>/);
    // The card says the moved end and the days its tips are paused; the form is gone (once per period).
    expect(res.body).toContain(`Active until ${dateTime(newEnd)}`);
    expect(res.body).toContain(`Tips paused from ${dateTime(record!.startsAt)} until ${dateTime(record!.endsAt)}.`);
    expect(res.body).not.toContain('action="/portal/pause"');
    expect((await account(p)).body).toContain('data-pause="paused"');
  });

  it('shows a refusal in the catalogue words and writes nothing: too many days, a second pause, another phone\'s subscription', async () => {
    const p = await weeklySubscriber();
    const tooMany = await submit(p, `subscription_id=${p.subscription.id}&days=9`);
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.body).toContain('<p class="warn" role="status" data-testid="account-notice">You can pause for 1 to 7 days.</p>');
    expect((await submit(p, `subscription_id=${p.subscription.id}&days=`)).statusCode).toBe(422);
    expect((await submit(p, `subscription_id=${p.subscription.id}&days=2x`)).statusCode).toBe(422);
    expect(await t.deps.db.select().from(subscriptionPauses).where(eq(subscriptionPauses.subscriptionId, p.subscription.id))).toHaveLength(0);

    const other = await weeklySubscriber();
    const notTheirs = await submit(p, `subscription_id=${other.subscription.id}&days=2`);
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.body).toContain('We found no running subscription of yours to pause.');
    expect((await submit(p, 'subscription_id=abc&days=2')).statusCode).toBe(404);

    expect((await submit(p, `subscription_id=${p.subscription.id}&days=2`)).statusCode).toBe(200);
    const again = await submit(p, `subscription_id=${p.subscription.id}&days=2`);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('This subscription was paused once already. You can pause again after you renew.');
    expect((await subscriptionById(p.subscription.id)).expiresAt.getTime()).toBe(p.subscription.expiresAt.getTime() + 2 * DAY);
  });

  it('speaks Kiswahili to a phone that reads Kiswahili', async () => {
    const p = await weeklySubscriber();
    expect((await t.app.inject({ method: 'POST', url: '/api/portal/language', headers: { cookie: p.cookie }, payload: { language: 'sw' } })).statusCode).toBe(200);
    expect((await account(p)).body).toContain('Sitisha tips zangu kwa siku ngapi? 1 hadi 7');
    const res = await submit(p, `subscription_id=${p.subscription.id}&days=2`);
    expect(res.body).toMatch(/Imesitishwa kwa siku 2: hakuna tips hadi [^<]+\. Usajili wako sasa unaisha [^<]+\. Tumekutumia SMS\./);
    expect(res.body).toContain('Tips zimesitishwa kuanzia');
  });

  it('offers no pause to a self-excluded person, nor while pausing is off, and sends a signed-out visitor to sign in', async () => {
    const p = await weeklySubscriber();
    await t.deps.db.execute(sql`update settings set value = '0'::jsonb where key = 'subscription_pause_max_days'`);
    try {
      expect((await account(p)).body).not.toContain('action="/portal/pause"');
    } finally {
      await t.deps.db.execute(sql`update settings set value = '7'::jsonb where key = 'subscription_pause_max_days'`);
    }
    expect((await account(p)).body).toContain('action="/portal/pause"');
    expect((await t.as(admin, { method: 'POST', url: '/api/exclusions', payload: { phone: p.local, period: '30' } })).statusCode).toBe(200);
    expect((await account(p)).body).not.toContain('action="/portal/pause"');
    const refused = await submit(p, `subscription_id=${p.subscription.id}&days=2`);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('This is not available while you are excluded from gambling.');

    const visitor = await t.app.inject({ method: 'POST', url: '/portal/pause', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'subscription_id=1&days=2' });
    expect(visitor.statusCode).toBe(303);
    expect(visitor.headers.location).toBe('/portal/sign-in?next=%2Fportal%2Faccount');
  });
});
