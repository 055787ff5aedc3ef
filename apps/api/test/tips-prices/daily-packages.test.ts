/**
 * Decision 095: a package may be daily, priced per day. An admin marks a 1-day package daily (a
 * longer one is refused on `daily`); a punter buys N days of it on the portal, on USSD or by paybill,
 * and the subscription ends N days later, at exactly N x the day price, its invoice line N x the day
 * price. A paybill amount that is not a whole number of days buys nothing: it stays credit and the
 * payer is told the prices, as for any amount that matches no price.
 * Lives in: apps/api/test/tips-prices/daily-packages.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { pricePackages, smsMessages, stkRequests, subscriptions, taxInvoices, ussdPurchases } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { salesRequest } from '../../src/modules/tax/service.ts';
import { sendQueuedUssdPurchases } from '../../src/modules/ussd/service.ts';
import { ADMIN, signInToPortal, type TestApp } from '../helpers.ts';
import { appWithFakeDaraja, c2b, confirm, declaredAdult, ledgerOf, paymentByReceipt, receipt, SANDBOX_PASSKEY, seedPeople } from '../mpesa/fixtures.ts';
import { newSession, screen } from '../ussd/fixtures.ts';

const DAY = 86_400_000;
let t: TestApp;
let fake: FakeDaraja;
let ref: Awaited<ReturnType<typeof seedPeople>>;
let admin: string;
let daily: number;

beforeAll(async () => {
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
  ref = await seedPeople(t);
  await t.addUser({ email: 'daily-admin@example.com', categoryId: ADMIN });
  admin = await t.tokenFor('daily-admin@example.com');
  const added = await t.as(admin, {
    method: 'POST',
    url: '/api/tips/prices/store',
    payload: { bet_category_id: ref.d2.id, medium: 'sms', name: 'D2 SMS by the day', duration: 1, price: 20 },
  });
  expect(added.statusCode).toBe(200);
  const [row] = await t.deps.db.select().from(pricePackages).where(eq(pricePackages.name, 'D2 SMS by the day'));
  daily = row!.id;
});
afterAll(async () => {
  await t.close();
  await fake.close().catch(() => {});
});

const update = (id: number, payload: Record<string, unknown>) =>
  t.as(admin, { method: 'POST', url: '/api/tips/prices/update', payload: { bet_category_price_id: id, ...payload } });

/** The one sale a payment made, with its invoice. */
async function saleOf(paymentId: number) {
  const sales = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, paymentId));
  expect(sales).toHaveLength(1);
  const [invoice] = await t.deps.db
    .select()
    .from(taxInvoices)
    .where(and(eq(taxInvoices.subscriptionId, sales[0]!.id), eq(taxInvoices.kind, 'invoice')));
  return { sale: sales[0]!, invoice: invoice! };
}

/** The sale runs `days` days at days x KES 20, its eTIMS line `days` x KES 20 with the taxable value exact. */
function expectDays(bought: Awaited<ReturnType<typeof saleOf>>, days: number) {
  expect(bought.sale).toMatchObject({ packageId: daily, durationDays: days, amountCents: days * 2_000 });
  expect(bought.sale.expiresAt.getTime() - bought.sale.startsAt.getTime()).toBe(days * DAY);
  expect(bought.invoice).toMatchObject({ amountCents: days * 2_000, quantity: days });
  const line = salesRequest({ tin: 'P051234567X', branchId: '00' }, bought.invoice, null).itemList[0]!;
  expect(line).toMatchObject({ qty: days, prc: 20, splyAmt: days * 20, taxblAmt: days * 20, totAmt: days * 20 });
}

describe('an admin sells a package by the day', () => {
  it('marks a 1-day package daily, and refuses a weekly one or a day price with cents, saying why', async () => {
    expect((await update(daily, { name: 'D2 SMS by the day', price: 20, daily: true })).statusCode).toBe(200);
    const weekly = await update(ref.d2Sms.id, { name: ref.d2Sms.name, price: 100, daily: true });
    expect(weekly.statusCode).toBe(422);
    expect(weekly.json().errors.daily).toEqual([expect.stringMatching(/Only a 1-day package/)]);
    const cents = await update(daily, { name: 'D2 SMS by the day', price: 19.5, daily: true });
    expect(cents.statusCode).toBe(422);
    expect(cents.json().errors.price).toEqual([expect.stringMatching(/whole shillings/)]);
    const listed = (await t.as(admin, { method: 'GET', url: '/api/tips/prices/sms-tips' })).json().packages;
    expect(listed).toContainEqual(expect.objectContaining({ id: daily, price: 20, duration: 1, billing: 'daily' }));
    expect(listed).toContainEqual(expect.objectContaining({ id: ref.d2Sms.id, billing: 'period' }));
  });
});

describe('a punter buys days of a daily package', () => {
  it('by paybill: KES 60 to D2 buys 3 days at KES 20', async () => {
    const phone = '254711095001';
    await ref.person('subscriber', 'Daily Payer', phone);
    const body = c2b({ MSISDN: phone, BillRefNumber: 'D2', TransAmount: '60.00', TransID: receipt(), BusinessShortCode: '174379' });
    expect((await confirm(t, body)).statusCode).toBe(200);
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    expect(payment.status).toBe('claimed');
    expectDays(await saleOf(payment.id), 3);
    expect(await ledgerOf(t, { subscriberId: payment.subscriberId! })).toBe(0);
  });

  it('by paybill: KES 50 is not a whole number of days, so it stays credit and the payer is told the prices', async () => {
    const phone = '254711095002';
    await ref.person('subscriber', 'Short Payer', phone);
    const body = c2b({ MSISDN: phone, BillRefNumber: 'D2', TransAmount: '50.00', TransID: receipt(), BusinessShortCode: '174379' });
    expect((await confirm(t, body)).statusCode).toBe(200);
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    expect(await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id))).toEqual([]);
    expect(await ledgerOf(t, { subscriberId: payment.subscriberId! })).toBe(5_000);
    const [notice] = await t.deps.db
      .select()
      .from(smsMessages)
      .where(and(eq(smsMessages.recipient, phone), eq(smsMessages.intent, 'tips.credit')));
    expect(notice?.body).toMatch(/KES 50\.00 received .* kept as credit .*SMS KES 20\.00 a day/);
  });

  it('on USSD: asks how many days, confirms 4 days at KES 80, and the push buys 4 days', async () => {
    const phone = '254711095003';
    await declaredAdult(t, phone);
    const list = await screen(t, '1*1', `+${phone}`);
    const index = list.split('\n').find((l) => l.endsWith('SMS KES 20 a day'))!.split(' ')[0]!;
    expect(await screen(t, `1*1*${index}`, `+${phone}`)).toBe('CON Daily 2 Odds SMS: KES 20 a day.\nHow many days? Enter 1 to 30\n0 Back');
    expect(await screen(t, `1*1*${index}*31`, `+${phone}`)).toMatch(/^CON Invalid choice\.\nDaily 2 Odds SMS: KES 20 a day/);
    const confirmScreen = await screen(t, `1*1*${index}*4`, `+${phone}`);
    expect(confirmScreen, confirmScreen).toMatch(/^CON Daily 2 Odds SMS, 4 days: KES 80\.\nPay by M-Pesa from /);
    const sessionId = newSession();
    expect(await screen(t, `1*1*${index}*4*1`, `+${phone}`, sessionId)).toBe('END Enter your M-Pesa PIN when asked to pay KES 80 for Daily 2 Odds SMS.');
    expect(await t.deps.db.select().from(ussdPurchases).where(eq(ussdPurchases.sessionId, sessionId))).toMatchObject([{ packageId: daily, days: 4 }]);
    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'UDY0950003' });
    expect(await sendQueuedUssdPurchases(t.deps)).toBe(1);
    await fake.settled();
    expect(fake.pushes.at(-1)).toMatchObject({ PartyA: phone, Amount: 80, AccountReference: 'D2' });
    const [request] = await t.deps.db.select().from(stkRequests).where(eq(stkRequests.phone, phone));
    expect(request).toMatchObject({ status: 'paid', packageId: daily, days: 4, amountCents: 8_000 });
    expectDays(await saleOf(request!.paymentId!), 4);
  });

  it('on the portal: the package page asks the days, and 5 days ask KES 100 by STK push and buy 5 days', async () => {
    const cookie = await signInToPortal(t, '0711095004', '10.9.5.4');
    const page = await t.app.inject({ method: 'GET', url: `/portal/packages/${daily}`, headers: { cookie } });
    expect(page.body).toContain('KES 20 a day, by SMS');
    expect(page.body).toMatch(/<input type="number" id="days" name="days" min="1" max="30"/);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/portal/buy',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `package_id=${daily}&adult=1&days=31`,
    });
    expect(wrong.statusCode).toBe(422);
    expect(await t.deps.db.select().from(stkRequests).where(eq(stkRequests.phone, '254711095004'))).toEqual([]);
    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'PDY0950004' });
    const bought = await t.app.inject({
      method: 'POST',
      url: '/portal/buy',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `package_id=${daily}&adult=1&days=5`,
    });
    expect(bought.statusCode).toBe(303);
    await fake.settled();
    expect(fake.pushes.at(-1)).toMatchObject({ PartyA: '254711095004', Amount: 100, AccountReference: 'D2' });
    const [request] = await t.deps.db.select().from(stkRequests).where(eq(stkRequests.phone, '254711095004'));
    expect(request).toMatchObject({ status: 'paid', days: 5, amountCents: 10_000 });
    expectDays(await saleOf(request!.paymentId!), 5);
  });
});
