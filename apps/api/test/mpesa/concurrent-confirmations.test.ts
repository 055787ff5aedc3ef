/**
 * C2B confirmations arriving at once (decision 054): twelve for one payer, fifty spread over many.
 * Every payment is stored exactly once and settled as it would be alone (claimed with its plan,
 * package (days of a daily one too), credit or standing-order run), or, for a stranger, waits unclaimed; the money adds up to
 * the cent. A payment whose rules still cannot settle it is kept unclaimed with the reason, shown
 * in the admins' list. PGlite runs one transaction at a time, so the races only happen on
 * PostgreSQL (DATABASE_URL); the outcomes must be the same on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { PORTAL_COOKIE } from '@betdesk/contract';
import { bet4mePlans, mpesaPayments, pricePackages, smsMessages, standingOrders, subscriptions, tipsSubscribers } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import type { TestApp } from '../helpers.ts';
import { declaredAdult, c2b, closeDarajaWorld, confirm, ratibaWorld, ledgerOf, type Reference } from './fixtures.ts';

const SHORTCODE = '174379';
const DAY = 86_400_000;

let t: TestApp;
let fake: FakeDaraja;
let ref: Reference;
let admin: string;
/** A Bet4Me plan priced to the cent. */
let oddPlan: { id: number; priceCents: number; durationDays: number };
/** Over 2.5 by SMS sold by the day at KES 20 (decision 095): the only OV package. */
let ovDaily: number;
let phoneNo = 711_300_000;

beforeAll(async () => {
  ({ t, fake, ref, admin } = await ratibaWorld(SHORTCODE));
  const [plan] = await t.deps.db.insert(bet4mePlans).values({ name: 'Odd week', durationDays: 7, priceCents: 77_777 }).returning();
  oddPlan = plan!;
  const [daily] = await t.deps.db
    .insert(pricePackages)
    .values({ betCategoryId: ref.ov.id, medium: 'sms', name: 'Over 2.5 SMS by the day', durationDays: 1, priceCents: 2_000, billing: 'daily' })
    .returning();
  ovDaily = daily!.id;
});
afterAll(() => closeDarajaWorld({ t, fake }));

const nextPhone = () => `254${(phoneNo += 1)}`;
const paid = (phone: string, amount: string, account = '') => c2b({ MSISDN: phone, BillRefNumber: account, TransAmount: amount, BusinessShortCode: SHORTCODE });

/** A payer of one kind, the confirmations they send, and what must be true once they all arrived. */
interface Payer {
  kind: string;
  /** The next confirmation this payer sends (a fresh receipt each time). */
  pay(): Promise<Record<string, unknown>>;
  /** Checks that the payments of `receipts` settled as they would have one by one. */
  check(receipts: string[]): Promise<void>;
}

async function paymentsOf(receipts: string[]) {
  return t.deps.db.select().from(mpesaPayments).where(inArray(mpesaPayments.transId, receipts)).orderBy(asc(mpesaPayments.id));
}

/** Every payment stored once, claimed to `payee`, no warning; answers their ids. */
async function claimedTo(receipts: string[], payee: { clientId: number } | { subscriberId: number }): Promise<number[]> {
  const rows = await paymentsOf(receipts);
  expect(rows).toHaveLength(receipts.length);
  for (const row of rows) {
    expect(row).toMatchObject({ status: 'claimed', warning: null, ...('clientId' in payee ? { clientId: payee.clientId } : { subscriberId: payee.subscriberId }) });
  }
  return rows.map((r) => r.id);
}

/** The subscriptions the payments bought, one each, running back to back (none overlaps another). */
async function stackedOnePerPayment(paymentIds: number[], durationDays: number) {
  const bought = await t.deps.db.select().from(subscriptions).where(inArray(subscriptions.paymentId, paymentIds)).orderBy(asc(subscriptions.startsAt));
  expect(bought).toHaveLength(paymentIds.length);
  expect(new Set(bought.map((s) => s.paymentId)).size).toBe(paymentIds.length);
  for (let i = 1; i < bought.length; i += 1) expect(bought[i]!.startsAt.getTime()).toBe(bought[i - 1]!.expiresAt.getTime());
  const covered = bought.at(-1)!.expiresAt.getTime() - bought[0]!.startsAt.getTime();
  expect(covered).toBe(paymentIds.length * durationDays * DAY);
  return bought;
}

/** A Bet4Me client paying the odd plan's price from their phone: each payment buys the plan once more. */
async function planClient(): Promise<Payer> {
  const phone = nextPhone();
  const clientId = await ref.person('client', `Plan Client ${phone}`, phone);
  return {
    kind: 'Bet4Me client paying a plan',
    pay: async () => paid(phone, '777.77'),
    async check(receipts) {
      const ids = await claimedTo(receipts, { clientId });
      const bought = await stackedOnePerPayment(ids, 7);
      expect(bought.every((s) => s.planId === oddPlan.id && s.amountCents === 77_777)).toBe(true);
      expect(await ledgerOf(t, { clientId })).toBe(0);
    },
  };
}

/** A tips subscriber paying the D2 weekly SMS package: each payment buys a week more. */
async function tipsSubscriber(): Promise<Payer> {
  const phone = nextPhone();
  const subscriberId = await ref.person('subscriber', `Tips Subscriber ${phone}`, phone);
  return {
    kind: 'tips subscriber',
    pay: async () => paid(phone, '100.00', 'D2'),
    async check(receipts) {
      const ids = await claimedTo(receipts, { subscriberId });
      const bought = await stackedOnePerPayment(ids, 7);
      expect(bought.every((s) => s.packageId === ref.d2Sms.id && s.amountCents === 10_000)).toBe(true);
      expect(await ledgerOf(t, { subscriberId })).toBe(0);
    },
  };
}

/** A tips subscriber paying KES 60 to OV, the daily package: each payment buys 3 days more, at 3 x KES 20. */
async function dailySubscriber(): Promise<Payer> {
  const phone = nextPhone();
  const subscriberId = await ref.person('subscriber', `Daily Subscriber ${phone}`, phone);
  return {
    kind: 'daily package subscriber',
    pay: async () => paid(phone, '60.00', 'OV'),
    async check(receipts) {
      const ids = await claimedTo(receipts, { subscriberId });
      const bought = await stackedOnePerPayment(ids, 3);
      expect(bought.every((s) => s.packageId === ovDaily && s.durationDays === 3 && s.amountCents === 6_000)).toBe(true);
      expect(await ledgerOf(t, { subscriberId })).toBe(0);
    },
  };
}

/** A Bet4Me client paying an amount no plan costs: it is credit on their account, to the cent. */
async function creditDeposit(): Promise<Payer> {
  const phone = nextPhone();
  const clientId = await ref.person('client', `Credit Client ${phone}`, phone);
  return {
    kind: 'credit deposit',
    pay: async () => paid(phone, '123.45'),
    async check(receipts) {
      const ids = await claimedTo(receipts, { clientId });
      expect(await t.deps.db.select().from(subscriptions).where(inArray(subscriptions.paymentId, ids))).toHaveLength(0);
      expect(await ledgerOf(t, { clientId })).toBe(receipts.length * 12_345);
    },
  };
}

/** Somebody nobody knows (a masked MSISDN, an account naming nothing): their money waits unclaimed. */
async function stranger(): Promise<Payer> {
  const last = String((phoneNo += 1)).slice(-3);
  return {
    kind: 'stranger',
    pay: async () => c2b({ MSISDN: `2547 ***** ${last}`, BillRefNumber: 'WHO', TransAmount: '250.50', BusinessShortCode: SHORTCODE }),
    async check(receipts) {
      const rows = await paymentsOf(receipts);
      expect(rows).toHaveLength(receipts.length);
      for (const row of rows) expect(row).toMatchObject({ status: 'unclaimed', clientId: null, subscriberId: null, warning: null, amountCents: 25_050 });
    },
  };
}

/** A tips subscriber whose approved M-Pesa Ratiba standing order runs: each run buys the order's package. */
async function ratibaRun(): Promise<Payer> {
  const phone = nextPhone();
  // A new phone that declared 18+ before paying (decision 066): its first payment subscribes it.
  await declaredAdult(t, phone);
  expect((await confirm(t, paid(phone, '100.00', 'D2'))).statusCode).toBe(200);
  const [subscriber] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
  const [first] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, subscriber!.id));
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
  const on = await t.app.inject({ method: 'POST', url: '/api/portal/auto-renew', headers: { cookie }, payload: { subscription_id: first!.id } });
  expect(on.statusCode).toBe(200);
  await fake.settled();
  const [order] = await t.deps.db.select().from(standingOrders).where(eq(standingOrders.id, on.json().standing_order.id as number));
  expect(order!.status).toBe('active');
  // The run's confirmation, as the fake sends it, captured instead of delivered: the test sends them all at once.
  const runBody = async () => {
    const deliver = fake.deliver;
    let body: Record<string, unknown> | undefined;
    fake.deliver = async (_url, sent) => {
      body = sent as Record<string, unknown>;
    };
    try {
      await fake.runStandingOrder(order!.responseRefId!);
    } finally {
      fake.deliver = deliver;
    }
    return body!;
  };
  return {
    kind: 'Ratiba run',
    pay: runBody,
    async check(receipts) {
      const ids = await claimedTo(receipts, { subscriberId: subscriber!.id });
      const bought = await stackedOnePerPayment(ids, 7);
      expect(bought.every((s) => s.source === 'ratiba' && s.packageId === ref.d2Sms.id)).toBe(true);
      expect(bought[0]!.startsAt.getTime()).toBe(first!.expiresAt.getTime()); // after the cover the first payment bought
      expect(await ledgerOf(t, { subscriberId: subscriber!.id })).toBe(0);
    },
  };
}

const KINDS: [string, () => Promise<Payer>][] = [
  ['Bet4Me client paying a plan', planClient],
  ['tips subscriber', tipsSubscriber],
  ['tips subscriber buying days of a daily package', dailySubscriber],
  ['Bet4Me client paying credit', creditDeposit],
  ['stranger', stranger],
  ['subscriber whose Ratiba standing order runs', ratibaRun],
];

/** Sends every body at once through the webhook; every one is answered as Daraja expects. */
async function allAtOnce(bodies: Record<string, unknown>[]) {
  const answers = await Promise.all(bodies.map((b) => confirm(t, b)));
  for (const a of answers) expect(a.json()).toEqual({ ResultCode: 0, ResultDesc: 'Success' });
}

describe('C2B confirmations arriving at once', () => {
  it.each(KINDS)('settles 12 at once from one %s, each once and as if alone', async (_name, make) => {
    const payer = await make();
    const bodies: Record<string, unknown>[] = [];
    for (let i = 0; i < 12; i += 1) bodies.push(await payer.pay());
    await allAtOnce(bodies);
    await payer.check(bodies.map((b) => b.TransID as string));
  });

  it('settles 50 at once spread over payers of every kind, and the day adds up to the cent', async () => {
    const payers = [
      ...(await Promise.all([planClient(), planClient(), planClient()])),
      ...(await Promise.all([tipsSubscriber(), tipsSubscriber(), tipsSubscriber()])),
      ...(await Promise.all([creditDeposit(), creditDeposit()])),
      ...(await Promise.all([stranger(), stranger()])),
      await dailySubscriber(),
    ];
    payers.push(await ratibaRun(), await ratibaRun());
    const sent = new Map<Payer, Record<string, unknown>[]>(payers.map((p) => [p, []]));
    const bodies: Record<string, unknown>[] = [];
    for (let i = 0; i < 50; i += 1) {
      const payer = payers[i % payers.length]!;
      const body = await payer.pay();
      sent.get(payer)!.push(body);
      bodies.push(body);
    }
    await allAtOnce(bodies);
    for (const [payer, theirs] of sent) await payer.check(theirs.map((b) => b.TransID as string));

    const receipts = bodies.map((b) => b.TransID as string);
    const rows = await paymentsOf(receipts);
    expect(rows).toHaveLength(50);
    const sentCents = bodies.reduce((sum, b) => sum + Math.round(Number(b.TransAmount) * 100), 0);
    expect(rows.reduce((sum, r) => sum + r.amountCents!, 0)).toBe(sentCents);
    const unclaimed = rows.filter((r) => r.status === 'unclaimed');
    expect(unclaimed).toHaveLength(sent.get(payers[8]!)!.length + sent.get(payers[9]!)!.length);
  });
});

describe('a payment its rules cannot settle', () => {
  /** Makes every subscription for `amountCents` fail in the database with `code` (a test-only trigger). */
  async function failingSubscriptionsOf(amountCents: number, code: string) {
    await t.deps.db.execute(
      sql.raw(`
      create or replace function test_fail_subscription_${amountCents}() returns trigger language plpgsql as $$
      begin
        if new.amount_cents = ${amountCents} then raise exception 'test failure' using errcode = '${code}'; end if;
        return new;
      end $$`),
    );
    await t.deps.db.execute(
      sql.raw(`create trigger test_fail_subscription_${amountCents} before insert on subscriptions for each row execute function test_fail_subscription_${amountCents}()`),
    );
  }

  async function listed(transId: string) {
    const res = await t.as(admin, { method: 'GET', url: `/api/mpesa-transactions/unclaimed?search=${transId}` });
    expect(res.statusCode).toBe(200);
    return (res.json().transactions as { transaction_reference: string; warning: string | null; status: string }[]).find((p) => p.transaction_reference === transId);
  }

  it('is kept unclaimed with the reason after every retry lost its race, and the admins see why', async () => {
    const [plan] = await t.deps.db.insert(bet4mePlans).values({ name: 'Cursed week', durationDays: 7, priceCents: 66_666 }).returning();
    await failingSubscriptionsOf(plan!.priceCents, '40P01');
    const phone = nextPhone();
    const clientId = await ref.person('client', 'Unlucky Client', phone);
    const body = paid(phone, '666.66');
    await allAtOnce([body]);

    const [row] = await paymentsOf([body.TransID as string]);
    expect(row).toMatchObject({ status: 'unclaimed', clientId: null, amountCents: 66_666 });
    expect(row!.warning).toMatch(/^Not settled automatically: .*database code 40P01.*claim it by hand/);
    expect(await ledgerOf(t, { clientId })).toBe(0);
    expect((await listed(body.TransID as string))?.warning).toBe(row!.warning);
  });

  it('is kept unclaimed with the reason when the rules fail for any other reason', async () => {
    const [plan] = await t.deps.db.insert(bet4mePlans).values({ name: 'Broken week', durationDays: 7, priceCents: 55_555 }).returning();
    await failingSubscriptionsOf(plan!.priceCents, 'P0001');
    const phone = nextPhone();
    await ref.person('client', 'Broken Client', phone);
    const body = paid(phone, '555.55');
    await allAtOnce([body]);

    const [row] = await paymentsOf([body.TransID as string]);
    expect(row).toMatchObject({ status: 'unclaimed', clientId: null });
    expect(row!.warning).toBe('Not settled automatically: the database refused it (code P0001). Check it and claim it by hand');
    // The warning is the reason an admin reads; the warning never leaks the statement's values.
    expect(row!.warning).not.toContain(phone);
    expect((await listed(body.TransID as string))?.warning).toBe(row!.warning);
  });
});
