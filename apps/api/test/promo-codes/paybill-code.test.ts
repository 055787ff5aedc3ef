/**
 * A promo code in the paybill account (decision 086): "D2-RADIO10" paid at the code's price buys the
 * package at it and records the use (its eTIMS line carries the discount); paid at the list price it
 * buys at list price and uses nothing; a wrong, expired or already-used code settles as without a
 * code and the payer is told why, in their language; a confirmation sent twice uses the code once;
 * 20 payments at once from different phones against a cap of 5 make exactly 5 uses. PGlite runs one
 * transaction at a time, so the race happens on PostgreSQL only (DATABASE_URL); the outcome must be
 * the same on both.
 * Lives in: apps/api/test/promo-codes/paybill-code.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { mpesaPayments, promoCodes, promoCodeUses, smsMessages, subscriptions, taxInvoices } from '../../src/db/schema/index.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import { promoCodeInAccount } from '../../src/modules/mpesa/matching.ts';
import { setLanguage } from '../../src/modules/sms/languages.ts';
import { transmitDueInvoices } from '../../src/modules/tax/service.ts';
import { initialiseTaxDevice, type TestApp } from '../helpers.ts';
import { c2b, confirm, declaredAdult, ledgerOf, paymentByReceipt, SECRET } from '../mpesa/fixtures.ts';
import { addTipsSubscriber, tipsApp, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp;
let ref: TipsReference;
let admin: string;
let oscu: FakeOscu;
let phoneNo = 711_420_000;

const DAY = 86_400_000;
const running = () => ({ starts_on: new Date(Date.now() - DAY).toISOString(), ends_on: new Date(Date.now() + 30 * DAY).toISOString() });

beforeAll(async () => {
  oscu = await startFakeOscu();
  ({ t, ref, admin } = await tipsApp());
  t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
  await initialiseTaxDevice(t, admin, oscu.baseUrl);
  // The D2 SMS weekly package is KES 500: 10 % off asks KES 450.
  for (const payload of [
    { code: 'RADIO10', kind: 'percent', percent_off: 10, package_ids: [ref.d2SmsWeek], ...running(), one_per_phone: true, first_purchase_only: false },
    { code: 'OLD10', kind: 'percent', percent_off: 10, package_ids: [ref.d2SmsWeek], ...running(), one_per_phone: true, first_purchase_only: false },
    { code: 'CAP5', kind: 'fixed', amount_off: 50, package_ids: [ref.d2SmsWeek], ...running(), max_uses: 5, one_per_phone: true, first_purchase_only: false },
  ]) {
    expect((await t.as(admin, { method: 'POST', url: '/api/promotions/codes', payload })).statusCode).toBe(200);
  }
  await t.deps.db.execute(sql`update promo_codes set ends_at = now() - interval '1 minute' where code = 'OLD10'`);
});
afterAll(async () => {
  await t.close();
  await oscu.close();
});

/** A new punter's phone, declared 18+ (a first purchase buys at once). */
async function newPhone(): Promise<string> {
  const phone = `254${(phoneNo += 1)}`;
  await declaredAdult(t, phone);
  return phone;
}

const paid = (phone: string, account: string, amount: string) => c2b({ MSISDN: phone, BillRefNumber: account, TransAmount: amount });

async function sent(body: Record<string, unknown>) {
  const res = await confirm(t, body);
  expect(res.statusCode).toBe(200);
  const payment = (await paymentByReceipt(t, body.TransID as string))!;
  const sales = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
  const uses = await t.deps.db.select().from(promoCodeUses).where(eq(promoCodeUses.paymentId, payment.id));
  return { payment, sales, uses };
}

const usesOf = async (code: string) => (await t.deps.db.select().from(promoCodes).where(eq(promoCodes.code, code)))[0]!.uses;
const smsTo = (phone: string, intent: string) =>
  t.deps.db.select().from(smsMessages).where(and(eq(smsMessages.recipient, phone), eq(smsMessages.intent, intent)));

describe('the account names a promo code', () => {
  it('reads "D2-RADIO10" (case and spaces ignored), never a phone after the category', () => {
    const d2 = { code: 'D2' };
    expect(promoCodeInAccount('D2-RADIO10', d2)).toBe('RADIO10');
    expect(promoCodeInAccount(' d2 - radio10 ', d2)).toBe('RADIO10');
    expect(promoCodeInAccount('D2', d2)).toBeNull();
    expect(promoCodeInAccount('D2RADIO10', d2)).toBeNull();
    expect(promoCodeInAccount('D2-0712345678', d2)).toBeNull();
    expect(promoCodeInAccount('D2-RADIO-10', d2)).toBeNull();
    expect(promoCodeInAccount('O15-RADIO10', d2)).toBeNull();
    expect(promoCodeInAccount('D2-RADIO10', null)).toBeNull();
  });
});

describe('a paybill payment with a code in the account', () => {
  it('at the code\'s price buys the package at it, records the use, and the eTIMS line carries the discount', async () => {
    const phone = await newPhone();
    const { payment, sales, uses } = await sent(paid(phone, 'D2-RADIO10', '450.00'));
    expect(payment).toMatchObject({ status: 'claimed', warning: null });
    expect(sales).toEqual([expect.objectContaining({ packageId: ref.d2SmsWeek, amountCents: 45_000 })]);
    expect(uses).toEqual([
      expect.objectContaining({ status: 'used', channel: 'paybill', phone, listPriceCents: 50_000, discountCents: 5_000, priceCents: 45_000, subscriptionId: sales[0]!.id }),
    ]);
    expect(await usesOf('RADIO10')).toBe(1);
    expect(await ledgerOf(t, { subscriberId: payment.subscriberId! })).toBe(0);
    expect(await smsTo(phone, 'tips.receipt')).toHaveLength(1);
    expect(await smsTo(phone, 'promo.refused')).toHaveLength(0);

    await t.deps.db.execute(sql`update tax_invoices set next_attempt_at = now() where status = 'queued'`);
    expect((await transmitDueInvoices(t.deps)).rejected).toBe(0);
    const [invoice] = await t.deps.db.select().from(taxInvoices).where(and(eq(taxInvoices.subscriptionId, sales[0]!.id), eq(taxInvoices.kind, 'invoice')));
    expect(invoice).toMatchObject({ status: 'sent', amountCents: 45_000 });
    const line = (oscu.sales.get(`P051234567X/00/${invoice!.number}`) as { itemList: Record<string, unknown>[] }).itemList[0]!;
    expect(line).toMatchObject({ prc: 500, splyAmt: 500, dcRt: 10, dcAmt: 50, taxblAmt: 450, totAmt: 450 });
  });

  it('a known subscriber\'s payment at the code\'s price (matched by phone) makes the same sale', async () => {
    const phone = `254${(phoneNo += 1)}`;
    await addTipsSubscriber(t.deps.db, ref, phone, 'sms', ref.d2);
    await declaredAdult(t, phone);
    const { payment, sales, uses } = await sent(paid(phone, 'd2-radio10', '450.00'));
    expect(payment).toMatchObject({ status: 'claimed' });
    expect(sales).toEqual([expect.objectContaining({ packageId: ref.d2SmsWeek, amountCents: 45_000 })]);
    expect(uses).toEqual([expect.objectContaining({ status: 'used', channel: 'paybill', subscriptionId: sales[0]!.id })]);
  });

  it('at the list price buys at list price and uses nothing', async () => {
    const phone = await newPhone();
    const before = await usesOf('RADIO10');
    const { sales, uses } = await sent(paid(phone, 'D2-RADIO10', '500.00'));
    expect(sales).toEqual([expect.objectContaining({ packageId: ref.d2SmsWeek, amountCents: 50_000 })]);
    expect(uses).toEqual([]);
    expect(await usesOf('RADIO10')).toBe(before);
    expect(await smsTo(phone, 'promo.refused')).toHaveLength(0);
  });

  it('a wrong code settles as without a code (credit) and the payer is told why', async () => {
    const phone = await newPhone();
    const { payment, sales, uses } = await sent(paid(phone, 'D2-NOSUCH', '450.00'));
    expect(payment).toMatchObject({ status: 'claimed' });
    expect(sales).toEqual([]);
    expect(uses).toEqual([]);
    expect(await ledgerOf(t, { subscriberId: payment.subscriberId! })).toBe(45_000);
    expect((await smsTo(phone, 'promo.refused')).map((m) => m.body)).toEqual(['There is no promo code NOSUCH. Check it and try again.']);
    expect(await smsTo(phone, 'tips.credit')).toHaveLength(1);
  });

  it('a code for another package says so: KES 360 is 10 % off the KES 400 web package, which RADIO10 is not for', async () => {
    const phone = await newPhone();
    const { sales, uses } = await sent(paid(phone, 'D2-RADIO10', '360.00'));
    expect(sales).toEqual([]);
    expect(uses).toEqual([]);
    expect((await smsTo(phone, 'promo.refused')).map((m) => m.body)).toEqual(['Promo code RADIO10 is not for this package.']);
  });

  it('an amount that is no price of the code is credit, and nothing is said of the code', async () => {
    const phone = await newPhone();
    const { sales, uses } = await sent(paid(phone, 'D2-RADIO10', '449.00'));
    expect(sales).toEqual([]);
    expect(uses).toEqual([]);
    expect(await smsTo(phone, 'promo.refused')).toHaveLength(0);
    expect(await smsTo(phone, 'tips.credit')).toHaveLength(1);
  });

  it('a wrong code at the list price still buys at list price', async () => {
    const phone = await newPhone();
    const { sales } = await sent(paid(phone, 'D2-NOSUCH', '500.00'));
    expect(sales).toEqual([expect.objectContaining({ packageId: ref.d2SmsWeek, amountCents: 50_000 })]);
  });

  it('an expired code, or one this phone used already, says so in the phone\'s language and sells nothing at its price', async () => {
    const phone = await newPhone();
    await setLanguage(t.deps.db, { phone, language: 'sw', source: 'portal', by: null });
    const expired = await sent(paid(phone, 'D2-OLD10', '450.00'));
    expect(expired.sales).toEqual([]);
    expect((await smsTo(phone, 'promo.refused')).map((m) => m.body)).toEqual(['Msimbo wa punguzo OLD10 umekwisha muda.']);

    const again = await newPhone();
    expect((await sent(paid(again, 'D2-RADIO10', '450.00'))).uses).toHaveLength(1);
    const second = await sent(paid(again, 'D2-RADIO10', '450.00'));
    expect(second.sales).toEqual([]);
    expect(second.uses).toEqual([]);
    expect((await smsTo(again, 'promo.refused')).map((m) => m.body)).toEqual(['This number has already used promo code RADIO10.']);
  });

  it('a payment held for its reply 18 uses the code when it is sold', async () => {
    const phone = `254${(phoneNo += 1)}`;
    const { payment } = await sent(paid(phone, 'D2-RADIO10', '450.00'));
    expect(payment).toMatchObject({ status: 'unclaimed' });
    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/hooks/sms/inbound/${SECRET}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ from: `+${phone}`, text: '18', id: `ATin-${phone}` }).toString(),
    });
    expect(answer.statusCode).toBe(200);
    const sales = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
    expect(sales).toEqual([expect.objectContaining({ packageId: ref.d2SmsWeek, amountCents: 45_000 })]);
    expect(await t.deps.db.select().from(promoCodeUses).where(eq(promoCodeUses.paymentId, payment.id))).toEqual([
      expect.objectContaining({ status: 'used', channel: 'paybill', subscriptionId: sales[0]!.id }),
    ]);
  });

  it('the same TransID twice is stored once and uses the code once', async () => {
    const phone = await newPhone();
    const before = await usesOf('RADIO10');
    const body = paid(phone, 'D2-RADIO10', '450.00');
    await Promise.all([confirm(t, body), confirm(t, body)]);
    expect((await confirm(t, body)).statusCode).toBe(200);
    const payments = await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.transId, body.TransID as string));
    expect(payments).toHaveLength(1);
    expect(await t.deps.db.select().from(promoCodeUses).where(eq(promoCodeUses.paymentId, payments[0]!.id))).toHaveLength(1);
    expect(await usesOf('RADIO10')).toBe(before + 1);
  });
});

describe('a capped code under concurrent paybill payments', () => {
  it('20 payments at once from different phones against a cap of 5: exactly 5 uses, the others settle as without a code', async () => {
    const phones = await Promise.all(Array.from({ length: 20 }, () => newPhone()));
    const bodies = phones.map((phone) => paid(phone, 'D2-CAP5', '450.00'));
    const answers = await Promise.all(bodies.map((body) => confirm(t, body)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const payments = await t.deps.db.select().from(mpesaPayments).where(inArray(mpesaPayments.transId, bodies.map((b) => b.TransID as string)));
    expect(payments).toHaveLength(20);
    for (const p of payments) expect(p).toMatchObject({ status: 'claimed', warning: null });
    const ids = payments.map((p) => p.id);
    const uses = await t.deps.db.select().from(promoCodeUses).where(inArray(promoCodeUses.paymentId, ids));
    expect(uses).toHaveLength(5);
    for (const u of uses) expect(u).toMatchObject({ status: 'used', channel: 'paybill', priceCents: 45_000 });
    expect(await usesOf('CAP5')).toBe(5);
    const sales = await t.deps.db.select().from(subscriptions).where(inArray(subscriptions.paymentId, ids));
    expect(sales).toHaveLength(5);
    expect(sales.map((s) => s.id).sort()).toEqual(uses.map((u) => u.subscriptionId).sort());
    // The 15 others: kept as credit, each told the code is used up.
    const told = await t.deps.db.select().from(smsMessages).where(and(inArray(smsMessages.recipient, phones), eq(smsMessages.intent, 'promo.refused')));
    expect(told).toHaveLength(15);
    for (const m of told) expect(m.body).toBe('Promo code CAP5 has been used up.');
  });
});
