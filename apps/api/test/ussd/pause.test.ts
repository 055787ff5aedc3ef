import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { addDays } from '@betdesk/contract';
import { auditLog, pricePackages, smsMessages, standingOrders, subscriptionPauses, subscriptions, tipsSubscribers } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { activateSubscription } from '../../src/modules/subscriptions/service.ts';
import { signInToPortal, type TestApp } from '../helpers.ts';
import { c2b, confirm, declaredAdult, ratibaWorld, closeDarajaWorld, type Reference } from '../mpesa/fixtures.ts';
import { screen } from './fixtures.ts';

/*
 * 8 Pause on the USSD menu (decision 090): choose the subscription, type the days, confirm. The
 * rules are the portal's and the keyword's: once per subscription, weekly or monthly only, nothing
 * for a self-excluded or erased phone.
 */

let t: TestApp;
let fake: FakeDaraja;
let ref: Reference;
let admin: string;
let phoneNo = 711000950;
const DAY = 86_400_000;

beforeAll(async () => {
  ({ t, fake, ref, admin } = await ratibaWorld());
});
afterAll(() => closeDarajaWorld({ t, fake }));

/** A punter who paid the D2 weekly SMS package by paybill. */
async function weeklySubscriber() {
  phoneNo += 1;
  const phone = `254${phoneNo}`;
  await declaredAdult(t, phone);
  expect((await confirm(t, c2b({ MSISDN: phone, BillRefNumber: 'D2', TransAmount: '100.00', BusinessShortCode: '174379' }))).statusCode).toBe(200);
  const [subscriber] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
  const [subscription] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, subscriber!.id));
  return { phone, local: `0${phone.slice(3)}`, subscriberId: subscriber!.id, subscription: subscription! };
}
type Punter = Awaited<ReturnType<typeof weeklySubscriber>>;

const dial = (p: Punter, path: string) => screen(t, path, `+${p.phone}`);
const endOf = async (id: number) => (await t.deps.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!.expiresAt;
const pausesOf = (p: Punter) => t.deps.db.select().from(subscriptionPauses).where(eq(subscriptionPauses.subscriberId, p.subscriberId));

describe('8 Pause on the USSD menu', () => {
  it('is the last entry of the main menu, after the numbers punters know', async () => {
    const p = await weeklySubscriber();
    expect(await dial(p, '')).toMatch(/\n6 Lugha \/ Language\n7 Self-exclusion\n8 Pause$/);
  });

  it('pauses the chosen subscription for the days typed: its end and its automatic renewal move, audited, confirmed by SMS', async () => {
    const p = await weeklySubscriber();
    const cookie = await signInToPortal(t, p.local, '127.0.0.1');
    const on = await t.app.inject({ method: 'POST', url: '/api/portal/auto-renew', headers: { cookie }, payload: { subscription_id: p.subscription.id } });
    await fake.settled();
    const [order] = await t.deps.db.select().from(standingOrders).where(eq(standingOrders.id, on.json().standing_order.id));
    expect(order!.status).toBe('active');

    expect(await dial(p, '8')).toMatch(/^CON Pause which subscription\?\n1 Daily 2 Odds SMS to \d{1,2} \w{3} \d{4}\n0 Back$/);
    expect(await dial(p, '8*1')).toBe('CON Pause for how many days? Enter 1 to 7\n0 Back');
    expect(await dial(p, '8*1*3')).toMatch(/^CON Pause Daily 2 Odds SMS for 3 days\? No tips until \d{1,2} \w{3} \d{4}, and it then ends \d{1,2} \w{3} \d{4}\.\n1 Yes, pause\n0 Back$/);
    // Asking is not pausing: nothing is written before the yes.
    expect(await pausesOf(p)).toHaveLength(0);

    expect(await dial(p, '8*1*3*1')).toMatch(/^END Paused for 3 days: no tips until .+\. Your subscription now ends .+\. We sent you an SMS\.$/);
    expect((await endOf(p.subscription.id)).getTime()).toBe(p.subscription.expiresAt.getTime() + 3 * DAY);
    const [moved] = await t.deps.db.select().from(standingOrders).where(eq(standingOrders.id, order!.id));
    expect(moved!.nextDate).toBe(addDays(order!.nextDate, 3));
    const [record] = await pausesOf(p);
    expect(record).toMatchObject({ subscriptionId: p.subscription.id, days: 3, via: 'ussd', standingOrderId: order!.id, standingOrderNextAfter: moved!.nextDate });
    const [audited] = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'subscription.pause'), eq(auditLog.entityId, String(record!.id))));
    expect(audited!.after).toMatchObject({ days: 3, via: 'ussd' });
    const told = await t.deps.db.select().from(smsMessages).where(and(eq(smsMessages.recipient, p.phone), eq(smsMessages.intent, 'subscription.paused')));
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toContain('*334#');
  });

  it('refuses a second pause in the same period, on the menu and at the yes of a session begun before', async () => {
    const p = await weeklySubscriber();
    expect(await dial(p, '8*1*2*1')).toMatch(/^END Paused for 2 days/);
    expect(await dial(p, '8')).toBe('END This subscription was paused once already. You can pause again after you renew.');
    // The same path again (as a session begun before the pause would send it): refused, nothing moves twice.
    expect(await dial(p, '8*1*2*1')).toBe('END This subscription was paused once already. You can pause again after you renew.');
    expect(await pausesOf(p)).toHaveLength(1);
    expect((await endOf(p.subscription.id)).getTime()).toBe(p.subscription.expiresAt.getTime() + 2 * DAY);
  });

  it('asks the days again when they are more than the setting allows, or none', async () => {
    const p = await weeklySubscriber();
    const question = 'Pause for how many days? Enter 1 to 7\n0 Back';
    expect(await dial(p, '8*1*8')).toBe(`CON Invalid choice.\n${question}`);
    expect(await dial(p, '8*1*0')).toMatch(/^CON Pause which subscription\?/);
    expect(await dial(p, '8*1*x')).toBe(`CON Invalid choice.\n${question}`);
    expect(await pausesOf(p)).toHaveLength(0);
  });

  it('refuses a daily package: only a weekly or monthly subscription can be paused', async () => {
    phoneNo += 1;
    const phone = `254${phoneNo}`;
    const [subscriber] = await t.deps.db.insert(tipsSubscribers).values({ name: 'Daily', phone, phoneHash: sha256Hex(phone) }).returning();
    const [daily] = await t.deps.db
      .insert(pricePackages)
      .values({ betCategoryId: ref.d2.id, medium: 'sms', name: 'Daily 2 Odds SMS daily', durationDays: 1, priceCents: 2_000 })
      .returning();
    await t.deps.db.transaction((tx) =>
      activateSubscription(tx, {
        what: { subscriberId: subscriber!.id, packageId: daily!.id, betCategoryId: ref.d2.id, medium: 'sms' },
        durationDays: 1,
        amountCents: 2_000,
        source: 'manual',
      }),
    );
    expect(await screen(t, '8', `+${phone}`)).toBe('END Only a weekly or monthly subscription can be paused.');
    expect(await screen(t, '8*1*1*1', `+${phone}`)).toBe('END Only a weekly or monthly subscription can be paused.');
    expect(await t.deps.db.select().from(subscriptionPauses).where(eq(subscriptionPauses.subscriberId, subscriber!.id))).toHaveLength(0);
  });

  it('says there is nothing to pause to a phone without a running subscription', async () => {
    expect(await screen(t, '8', '+254711000949')).toBe('END We found no running subscription of yours to pause.');
  });

  it('is off while the setting is 0', async () => {
    const p = await weeklySubscriber();
    await t.deps.db.execute(sql`update settings set value = '0'::jsonb where key = 'subscription_pause_max_days'`);
    try {
      expect(await dial(p, '8')).toBe('END Pausing a subscription is not offered right now.');
    } finally {
      await t.deps.db.execute(sql`update settings set value = '7'::jsonb where key = 'subscription_pause_max_days'`);
    }
  });

  it('offers no pause to a self-excluded person, as no other lever is', async () => {
    const p = await weeklySubscriber();
    expect((await t.as(admin, { method: 'POST', url: '/api/exclusions', payload: { phone: p.local, period: '30' } })).statusCode).toBe(200);
    expect(await dial(p, '8')).toBe('END This is not available while you are excluded from gambling.');
    expect(await dial(p, '8*1*2*1')).toBe('END This is not available while you are excluded from gambling.');
    expect(await pausesOf(p)).toHaveLength(0);
    expect((await endOf(p.subscription.id)).getTime()).toBe(p.subscription.expiresAt.getTime());
  });

  it('records nothing for an erased phone: its every step ends the session', async () => {
    const p = await weeklySubscriber();
    expect((await t.as(admin, { method: 'POST', url: '/api/privacy/erase', payload: { phone: p.phone, reason: 'Asked to be forgotten' } })).statusCode).toBe(200);
    const erased = await dial(p, '');
    expect(erased).toMatch(/^END /);
    expect(await dial(p, '8*1*2*1')).toBe(erased);
    expect(await t.deps.db.select().from(subscriptionPauses).where(eq(subscriptionPauses.subscriptionId, p.subscription.id))).toHaveLength(0);
  });
});
