import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { ageDeclarations, ageHeldPayments, mpesaPayments, smsMessages, subscriptions, tipsSubscribers } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { c2b, confirm, declaredAdult, SECRET, seedPeople, type Reference } from '../mpesa/fixtures.ts';

// The paybill's 18+ declaration: a reply of 18 before the subscription starts (decision 066).
let t: TestApp;
let ref: Reference;
let phoneNo = 713000600;

beforeAll(async () => {
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
  ref = await seedPeople(t);
});
afterAll(() => t.close());

const newPhone = () => `254${(phoneNo += 1)}`;
const setting = (key: string, value: unknown) => t.deps.db.execute(sql`update settings set value = ${JSON.stringify(value)}::jsonb where key = ${key}`);

async function pay(phone: string) {
  const body = c2b({ MSISDN: phone, BillRefNumber: 'D2', TransAmount: '100.00' });
  expect((await confirm(t, body)).statusCode).toBe(200);
  return (await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.transId, body.TransID as string)))[0]!;
}

const reply = (from: string, text: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/hooks/sms/inbound/${SECRET}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ from: `+${from}`, text, id: `ATin-${Math.random().toString(36).slice(2)}` }).toString(),
  });

const smsTo = (phone: string, intent: string) => t.deps.db.select().from(smsMessages).where(and(eq(smsMessages.recipient, phone), eq(smsMessages.intent, intent)));
const subscriptionsOf = async (phone: string) => {
  const [s] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
  return s ? t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, s.id)) : [];
};

describe('a paybill payment from a phone that never declared it is 18 or older', () => {
  it('is kept, not sold, and its receipt asks for a reply of 18 within the grace', async () => {
    const phone = newPhone();
    const payment = await pay(phone);
    expect(payment).toMatchObject({ status: 'unclaimed', subscriberId: null });
    expect(payment.warning).toMatch(/reply 18/);
    expect(await subscriptionsOf(phone)).toHaveLength(0);
    const [asked] = await smsTo(phone, 'age.reply-asked');
    expect(asked!.body).toMatch(/reply 18 to this number within 72 hours/);
  });

  it('starts the subscription when 18 arrives within the grace, and records the declaration by SMS', async () => {
    const phone = newPhone();
    const payment = await pay(phone);
    expect((await reply(phone, ' 18 ')).statusCode).toBe(200);
    const [sold] = await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.id, payment.id));
    expect(sold).toMatchObject({ status: 'claimed', warning: null });
    expect(await subscriptionsOf(phone)).toHaveLength(1);
    const [declared] = await t.deps.db.select().from(ageDeclarations).where(eq(ageDeclarations.phone, phone));
    expect(declared!.channel).toBe('sms');
    // A second 18 sells nothing twice.
    await reply(phone, '18');
    expect(await subscriptionsOf(phone)).toHaveLength(1);
    // Declared now: the next payment buys at once.
    expect((await pay(phone)).status).toBe('claimed');
  });

  it('keeps it for a refund when 18 arrives after the grace, and says so', async () => {
    const phone = newPhone();
    const payment = await pay(phone);
    await t.deps.db.update(ageHeldPayments).set({ heldAt: new Date(Date.now() - 73 * 3_600_000) }).where(eq(ageHeldPayments.paymentId, payment.id));
    await reply(phone, '18');
    const [kept] = await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.id, payment.id));
    expect(kept).toMatchObject({ status: 'unclaimed' });
    expect(kept!.warning).toMatch(/after the grace/);
    expect(await subscriptionsOf(phone)).toHaveLength(0);
    const [late] = await smsTo(phone, 'sms.keyword-reply');
    expect(late!.body).toContain(payment.transId!);
  });

  it('asks a known subscriber who never declared, in Kiswahili when that is their language', async () => {
    const phone = newPhone();
    await t.deps.db.insert(tipsSubscribers).values({ name: 'Asha', phone, phoneHash: sha256Hex(phone) });
    await reply(phone, 'KISWAHILI');
    const payment = await pay(phone);
    expect(payment.status).toBe('unclaimed');
    const [asked] = await smsTo(phone, 'age.reply-asked');
    expect(asked!.body).toMatch(/jibu 18/);
  });

  it('buys at once from a declared phone, and from any phone while rg_age_gate is off', async () => {
    const declared = newPhone();
    await declaredAdult(t, declared);
    expect((await pay(declared)).status).toBe('claimed');
    await setting('rg_age_gate', false);
    try {
      const other = newPhone();
      expect((await pay(other)).status).toBe('claimed');
      expect(await smsTo(other, 'age.reply-asked')).toHaveLength(0);
    } finally {
      await setting('rg_age_gate', true);
    }
    expect(ref.d2.code).toBe('D2');
  });
});
