import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditLog, bonuses, bets, mpesaPayments, smsMessages, smsOptOuts, smsTipVersions, subscriptions } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import {
  c2b,
  confirm,
  ledgerOf,
  ledgerSumOfPayment,
  paymentByReceipt,
  receipt,
  SECRET,
  seedPeople,
  subscriptionsOfPayment,
} from './fixtures.ts';

let t: TestApp;
let ref: Awaited<ReturnType<typeof seedPeople>>;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  ref = await seedPeople(t);
});
afterAll(() => t.close());

async function countPayments(transId: string): Promise<number> {
  const [row] = await t.deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(mpesaPayments)
    .where(sql`${mpesaPayments.transId} = ${transId} or ${mpesaPayments.raw}->>'TransID' = ${transId}`);
  return row!.n;
}

async function subscriptionsOfSubscriber(subscriberId: number): Promise<number> {
  const [row] = await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(subscriptions).where(eq(subscriptions.subscriberId, subscriberId));
  return row!.n;
}

describe('C2B confirmation webhook', () => {
  it('answers as Daraja expects and stores the raw payload', async () => {
    const body = c2b({ BillRefNumber: 'NOBODY-HERE', MSISDN: '254799000009' });
    const res = await confirm(t, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ResultCode: 0, ResultDesc: 'Success' });
    const stored = await paymentByReceipt(t, body.TransID as string);
    expect(stored?.raw).toEqual(body);
    expect(stored?.amountCents).toBe(10_000);
    expect(stored?.status).toBe('unclaimed');
  });

  it('refuses a wrong secret with 404 and changes nothing', async () => {
    const body = c2b();
    const res = await confirm(t, body, 'not-the-secret-at-all-000');
    expect(res.statusCode).toBe(404);
    expect(await countPayments(body.TransID as string)).toBe(0);
    const stk = await t.app.inject({ method: 'POST', url: '/api/hooks/stk/wrong-secret-0000000000', payload: {} });
    expect(stk.statusCode).toBe(404);
  });

  it('reads TransTime as Nairobi time', async () => {
    const body = c2b({ TransTime: '20250314153045', BillRefNumber: 'XX' });
    await confirm(t, body);
    const stored = await paymentByReceipt(t, body.TransID as string);
    expect(stored?.transTime?.toISOString()).toBe('2025-03-14T12:30:45.000Z');
  });

  it('stores a repeated confirmation once and buys one subscription', async () => {
    const subscriberId = await ref.person('subscriber', 'Repeat Payer', '254722100001');
    const body = c2b({ BillRefNumber: 'd2 0722100001', TransAmount: '100.00' });
    for (let i = 0; i < 3; i += 1) expect((await confirm(t, body)).statusCode).toBe(200);
    expect(await countPayments(body.TransID as string)).toBe(1);
    const payment = await paymentByReceipt(t, body.TransID as string);
    expect(await subscriptionsOfPayment(t, payment!.id)).toHaveLength(1);
    expect(await ledgerOf(t, { subscriberId })).toBe(0);
  });

  it('stores 20 concurrent duplicates once, with one subscription', async () => {
    const subscriberId = await ref.person('subscriber', 'Concurrent Payer', '254722100002');
    const body = c2b({ BillRefNumber: 'D2', MSISDN: '254722100002', TransAmount: '100.00' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => confirm(t, body)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(await countPayments(body.TransID as string)).toBe(1);
    const payment = await paymentByReceipt(t, body.TransID as string);
    expect(payment?.status).toBe('claimed');
    expect(await subscriptionsOfPayment(t, payment!.id)).toHaveLength(1);
    expect(await ledgerOf(t, { subscriberId })).toBe(0);
  });

  it.each([
    ['a missing TransID', { TransID: undefined }, 'TransID is missing'],
    ['a missing amount', { TransAmount: undefined }, 'TransAmount is missing'],
    ['amount "abc"', { TransAmount: 'abc' }, 'is not an amount'],
    ['a negative amount', { TransAmount: '-50.00' }, 'is not an amount'],
    ['a zero amount', { TransAmount: '0.00' }, 'below KES 1'],
    ['a huge amount', { TransAmount: '250000.01' }, 'above KES 250,000'],
    ['an impossible TransTime', { TransTime: '20250231250000' }, 'is not a date'],
  ])('stores a confirmation with %s as rejected, with the reason, and answers 200', async (_name, over, reason) => {
    const body = c2b({ BillRefNumber: 'D2', ...over });
    const res = await confirm(t, body);
    expect(res.statusCode).toBe(200);
    expect(res.json().ResultCode).toBe(0);
    const [stored] = await t.deps.db
      .select()
      .from(mpesaPayments)
      .where(sql`${mpesaPayments.raw} = ${JSON.stringify(body)}::jsonb`);
    expect(stored?.status).toBe('rejected');
    expect(stored?.rejectReason).toContain(reason);
    expect(stored?.raw).toEqual(JSON.parse(JSON.stringify(body)));
  });

  it('keeps a body that is not JSON at all as rejected', async () => {
    const res = await confirm(t, '{"TransID": "RKBROKEN1", "TransAmount": ');
    expect(res.statusCode).toBe(200);
    const [stored] = await t.deps.db
      .select()
      .from(mpesaPayments)
      .where(sql`${mpesaPayments.raw}->>'unreadable_body' like '%RKBROKEN1%'`);
    expect(stored?.status).toBe('rejected');
    expect(stored?.rejectReason).toBe('The body is not valid JSON');
  });

  it('does not count rejected payloads as income', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/hooks/c2b/confirmation/${SECRET}`, payload: [] });
    expect(res.statusCode).toBe(200);
    const [row] = await t.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(mpesaPayments)
      .where(sql`${mpesaPayments.status} = 'rejected' and ${mpesaPayments.amountCents} is not null and ${mpesaPayments.amountCents} > 25000000`);
    expect(row!.n).toBe(0);
  });
});

describe('MSISDN kinds', () => {
  it('keeps a hashed MSISDN as given, shows no phone, and matches it to the subscriber with that phone hash', async () => {
    const subscriberId = await ref.person('subscriber', 'Hashed Payer', '254722100003');
    const hash = sha256Hex('254722100003');
    const body = c2b({ MSISDN: hash, BillRefNumber: 'D2' });
    await confirm(t, body);
    const stored = await paymentByReceipt(t, body.TransID as string);
    expect(stored).toMatchObject({ msisdn: hash, msisdnKind: 'hashed', senderPhone: null, subscriberId, matchedBy: 'msisdn' });
  });

  it('keeps a masked MSISDN as given and never claims by it', async () => {
    await ref.person('client', 'Masked Client', '254733100126');
    const body = c2b({ MSISDN: '2547 ***** 126', BillRefNumber: '' });
    await confirm(t, body);
    const stored = await paymentByReceipt(t, body.TransID as string);
    expect(stored).toMatchObject({ msisdn: '2547 ***** 126', msisdnKind: 'masked', senderPhone: null, status: 'unclaimed' });
  });

  it('reads a plain MSISDN as the sender phone and matches a client by it', async () => {
    const clientId = await ref.person('client', 'Plain Client', '254733100200');
    const body = c2b({ MSISDN: '254733100200', BillRefNumber: 'hello', TransAmount: '500.00' });
    await confirm(t, body);
    const stored = await paymentByReceipt(t, body.TransID as string);
    expect(stored).toMatchObject({ msisdnKind: 'plain', senderPhone: '254733100200', clientId, status: 'claimed' });
    expect(await ledgerOf(t, { clientId })).toBe(50_000);
  });

  it('keeps a matched payment, unclaimed, when its settlement fails unexpectedly, and stores a repeat once', async () => {
    const clientId = await ref.person('client', 'Failing Settlement', '254733100377');
    // The ledger refuses this one amount, as an unexpected failure of the rules would.
    await t.deps.database.executeSql(`
      create function refuse_4242() returns trigger language plpgsql as $$
      begin if new.amount_cents = 4242 then raise exception 'refused for the test'; end if; return new; end $$;
      create trigger refuse_4242 before insert on ledger_entries for each row execute function refuse_4242();`);
    try {
      const body = c2b({ MSISDN: '254733100377', BillRefNumber: 'hello', TransAmount: '42.42' });
      expect((await confirm(t, body)).json()).toEqual({ ResultCode: 0, ResultDesc: 'Success' });
      expect((await confirm(t, body)).json()).toEqual({ ResultCode: 0, ResultDesc: 'Success' });
      const stored = await paymentByReceipt(t, body.TransID as string);
      expect(stored).toMatchObject({ amountCents: 4242, status: 'unclaimed', clientId: null, matchedBy: null });
      // The admins see why it waits (decision 054).
      expect(stored!.warning).toBe('Not settled automatically: the database refused it (code P0001). Check it and claim it by hand');
      expect(await countPayments(body.TransID as string)).toBe(1);
      expect(await ledgerSumOfPayment(t, stored!.id)).toBe(0);
      expect(await ledgerOf(t, { clientId })).toBe(0);
    } finally {
      await t.deps.database.executeSql('drop trigger refuse_4242 on ledger_entries; drop function refuse_4242();');
    }
  });
});

describe('what a tips payment buys', () => {
  it('activates the SMS package when the amount equals its price (SMS preferred over web)', async () => {
    const subscriberId = await ref.person('subscriber', 'Package Payer', '254722100010');
    const body = c2b({ BillRefNumber: 'D2', MSISDN: '254722100010', TransAmount: '100' });
    await confirm(t, body);
    const payment = await paymentByReceipt(t, body.TransID as string);
    const [sub] = await subscriptionsOfPayment(t, payment!.id);
    expect(sub).toMatchObject({ subscriberId, packageId: ref.d2Sms.id, medium: 'sms', source: 'mpesa', amountCents: 10_000 });
    expect(await ledgerOf(t, { subscriberId })).toBe(0);
  });

  it("answers Daraja once the sale is committed, without waiting for its job nudges, and a failed nudge undoes nothing", async () => {
    const jobs = t.deps.jobs;
    const asked: string[] = [];
    try {
      // Nudges that never finish: an answer that waited for them would never come (the test's timeout).
      t.deps.jobs = { nudge: (queue) => (asked.push(queue), new Promise<void>(() => {})), stop: async () => {} };
      const held = c2b({ BillRefNumber: 'D2', MSISDN: '254722100030', TransAmount: '100' });
      const subscriberId = await ref.person('subscriber', 'Held Nudge', '254722100030');
      expect((await confirm(t, held)).json()).toEqual({ ResultCode: 0, ResultDesc: 'Success' });
      expect(asked.sort()).toEqual(['sms-dispatch', 'tax-invoices']);
      expect(await subscriptionsOfSubscriber(subscriberId)).toBe(1);

      t.deps.jobs = { nudge: () => Promise.reject(new Error('job queue unreachable')), stop: async () => {} };
      const failed = c2b({ BillRefNumber: 'D2', MSISDN: '254722100031', TransAmount: '100' });
      const other = await ref.person('subscriber', 'Failed Nudge', '254722100031');
      const res = await confirm(t, failed);
      expect(res.statusCode).toBe(200);
      expect((await paymentByReceipt(t, failed.TransID as string))?.status).toBe('claimed');
      expect(await subscriptionsOfSubscriber(other)).toBe(1);
    } finally {
      t.deps.jobs = jobs;
    }
  });

  it("sends today's tip after the receipt to a subscriber whose payment starts an SMS package, once a day", async () => {
    const subscriberId = await ref.person('subscriber', 'Late Payer', '254722100019');
    const [tip] = await t.deps.db.insert(smsTipVersions).values({ betCategoryId: ref.d2.id, content: 'D2 today: Tusker to win' }).returning();
    try {
      const messagesOfPayer = () =>
        t.deps.db.select().from(smsMessages).where(eq(smsMessages.subscriberId, subscriberId)).orderBy(smsMessages.id);
      await confirm(t, c2b({ BillRefNumber: 'D2', MSISDN: '254722100019', TransAmount: '100' }));
      expect((await messagesOfPayer()).map((m) => m.intent)).toEqual(['tips.receipt', 'tips.sms-tip']);
      expect((await messagesOfPayer())[1]).toMatchObject({ recipient: '254722100019', body: 'D2 today: Tusker to win' });
      // A second package the same day: its receipt, not the same tip again.
      await confirm(t, c2b({ BillRefNumber: 'D2', MSISDN: '254722100019', TransAmount: '100' }));
      expect((await messagesOfPayer()).map((m) => m.intent)).toEqual(['tips.receipt', 'tips.sms-tip', 'tips.receipt']);
      expect(await subscriptionsOfSubscriber(subscriberId)).toBe(2);
    } finally {
      await t.deps.db.delete(smsTipVersions).where(eq(smsTipVersions.id, tip!.id));
    }
  });

  it("does not send today's tip to a phone that stopped the category's SMS, and still sends the receipt", async () => {
    const subscriberId = await ref.person('subscriber', 'Stopped Payer', '254722100020');
    const [tip] = await t.deps.db.insert(smsTipVersions).values({ betCategoryId: ref.d2.id, content: 'D2 today: Gor to win' }).returning();
    await t.deps.db.insert(smsOptOuts).values({ phone: '254722100020', scope: String(ref.d2.id), betCategoryId: ref.d2.id, source: 'keyword' });
    try {
      await confirm(t, c2b({ BillRefNumber: 'D2', MSISDN: '254722100020', TransAmount: '100' }));
      const sent = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.subscriberId, subscriberId)).orderBy(smsMessages.id);
      expect(sent.map((m) => m.intent)).toEqual(['tips.receipt']);
      expect(await subscriptionsOfSubscriber(subscriberId)).toBe(1);
    } finally {
      await t.deps.db.delete(smsTipVersions).where(eq(smsTipVersions.id, tip!.id));
      await t.deps.db.delete(smsOptOuts).where(eq(smsOptOuts.phone, '254722100020'));
    }
  });

  it('prefers web when the subscriber last bought web', async () => {
    const subscriberId = await ref.person('subscriber', 'Web Payer', '254722100011');
    await t.deps.db.insert(subscriptions).values({
      subscriberId,
      packageId: ref.d2Web.id,
      betCategoryId: ref.d2.id,
      medium: 'web',
      durationDays: 7,
      amountCents: 10_000,
      startsAt: new Date(Date.now() - 20 * DAY),
      expiresAt: new Date(Date.now() - 13 * DAY),
      source: 'manual',
    });
    const body = c2b({ BillRefNumber: 'D2', MSISDN: '254722100011', TransAmount: '100' });
    await confirm(t, body);
    const payment = await paymentByReceipt(t, body.TransID as string);
    const [sub] = await subscriptionsOfPayment(t, payment!.id);
    expect(sub?.medium).toBe('web');
  });

  it('credits an amount below any package to the subscriber balance', async () => {
    const subscriberId = await ref.person('subscriber', 'Short Payer', '254722100012');
    const body = c2b({ BillRefNumber: 'D2', MSISDN: '254722100012', TransAmount: '60.00' });
    await confirm(t, body);
    const payment = await paymentByReceipt(t, body.TransID as string);
    expect(payment?.status).toBe('claimed');
    expect(await subscriptionsOfPayment(t, payment!.id)).toHaveLength(0);
    expect(await ledgerOf(t, { subscriberId })).toBe(6_000);
  });

  it('credits an amount above a package price without buying it', async () => {
    const subscriberId = await ref.person('subscriber', 'Over Payer', '254722100013');
    const body = c2b({ BillRefNumber: 'D2', MSISDN: '254722100013', TransAmount: '150.00' });
    await confirm(t, body);
    const payment = await paymentByReceipt(t, body.TransID as string);
    expect(await subscriptionsOfPayment(t, payment!.id)).toHaveLength(0);
    expect(await ledgerOf(t, { subscriberId })).toBe(15_000);
  });

  it('stacks a renewal on the current expiry of the same category and medium', async () => {
    const subscriberId = await ref.person('subscriber', 'Renewing Payer', '254722100014');
    const first = c2b({ BillRefNumber: 'D2', MSISDN: '254722100014', TransAmount: '100' });
    const second = c2b({ BillRefNumber: 'D2', MSISDN: '254722100014', TransAmount: '100' });
    await confirm(t, first);
    await confirm(t, second);
    const [a] = await subscriptionsOfPayment(t, (await paymentByReceipt(t, first.TransID as string))!.id);
    const [b] = await subscriptionsOfPayment(t, (await paymentByReceipt(t, second.TransID as string))!.id);
    expect(b!.startsAt.getTime()).toBe(a!.expiresAt.getTime());
    expect(b!.expiresAt.getTime() - a!.startsAt.getTime()).toBe(14 * DAY);
    expect(await ledgerOf(t, { subscriberId })).toBe(0);
  });

  it('leaves a tips payment from an unknown payer whose number is hashed unclaimed', async () => {
    const body = c2b({ BillRefNumber: 'D2', MSISDN: sha256Hex('254799555111') });
    await confirm(t, body);
    expect((await paymentByReceipt(t, body.TransID as string))?.status).toBe('unclaimed');
  });

  it('leaves an account number that names nobody unclaimed', async () => {
    const body = c2b({ BillRefNumber: 'ZZTOP', MSISDN: '2547 ***** 999' });
    await confirm(t, body);
    const stored = await paymentByReceipt(t, body.TransID as string);
    expect(stored).toMatchObject({ status: 'unclaimed', clientId: null, subscriberId: null });
  });
});

describe('what a Bet4Me client payment buys', () => {
  async function clientWithBonus(name: string, phone: string, bonusCents: number) {
    const clientId = await ref.person('client', name, phone);
    const [bet] = await t.deps.db
      .insert(bets)
      .values({ clientId, stakeCents: 100_000, description: 'Arsenal win', profitCents: bonusCents * 3, status: 'closed' })
      .returning({ id: bets.id });
    await t.deps.db.insert(bonuses).values({ betId: bet!.id, clientId, amountCents: bonusCents, ratePercent: 30 });
    return clientId;
  }

  it('pays pending bonuses first, then buys the plan the rest equals', async () => {
    const clientId = await clientWithBonus('Bonus Client', '254733100300', 20_000);
    const body = c2b({ BillRefNumber: `B4M${clientId}`, MSISDN: sha256Hex('254700000000'), TransAmount: '1200.00' });
    await confirm(t, body);
    const payment = await paymentByReceipt(t, body.TransID as string);
    expect(payment).toMatchObject({ status: 'claimed', clientId, matchedBy: 'account' });
    const [sub] = await subscriptionsOfPayment(t, payment!.id);
    expect(sub).toMatchObject({ clientId, planId: ref.weekly.id, amountCents: 100_000 });
    expect(await ledgerOf(t, { clientId })).toBe(0);
  });

  it('keeps what is left after the bonuses as credit when it equals no plan', async () => {
    const clientId = await clientWithBonus('Credit Client', '254733100301', 20_000);
    const body = c2b({ BillRefNumber: '0733100301', MSISDN: '2547 ***** 301', TransAmount: '500.00' });
    await confirm(t, body);
    const payment = await paymentByReceipt(t, body.TransID as string);
    expect(await subscriptionsOfPayment(t, payment!.id)).toHaveLength(0);
    expect(await ledgerOf(t, { clientId })).toBe(30_000);
    expect(await ledgerSumOfPayment(t, payment!.id)).toBe(30_000);
  });

  it('writes an audit row for every matched payment', async () => {
    const clientId = await ref.person('client', 'Audited Client', '254733100302');
    const body = c2b({ BillRefNumber: String(clientId), TransAmount: '40.00' });
    await confirm(t, body);
    const payment = await paymentByReceipt(t, body.TransID as string);
    const rows = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, String(payment!.id)));
    expect(rows.map((r) => r.action)).toContain('payment.match');
  });
});

describe('C2B validation webhook', () => {
  it('accepts every payment by default', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/hooks/c2b/validation/${SECRET}`,
      payload: c2b({ BillRefNumber: 'nonsense!!', TransID: receipt() }),
    });
    expect(res.json()).toEqual({ ResultCode: '0', ResultDesc: 'Accepted' });
  });

  it('refuses a plainly invalid account number with C2B00012 when the setting asks for it', async () => {
    await t.deps.db.execute(sql`update settings set value = 'true'::jsonb where key = 'mpesa_validate_account'`);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/hooks/c2b/validation/${SECRET}`,
      payload: c2b({ BillRefNumber: 'nonsense' }),
    });
    expect(bad.json()).toEqual({ ResultCode: 'C2B00012', ResultDesc: 'Rejected' });
    const good = await t.app.inject({ method: 'POST', url: `/api/hooks/c2b/validation/${SECRET}`, payload: c2b({ BillRefNumber: 'd2' }) });
    expect(good.json().ResultCode).toBe('0');
    await t.deps.db.execute(sql`update settings set value = 'false'::jsonb where key = 'mpesa_validate_account'`);
  });
});
