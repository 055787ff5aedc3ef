import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { nairobiRange } from '@betdesk/contract';
import { rows } from '../../src/db/rows.ts';
import { bets, bonusAllocations, bonuses, bonusPayments, mpesaPayments, subscriptions } from '../../src/db/schema/index.ts';
import { manualIncomeQuery } from '../../src/modules/reports/queries.ts';
import { createTestApp, explain, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';
import { c2b, confirm, paymentByReceipt, receipt, seedPeople } from '../mpesa/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;
let ref: Awaited<ReturnType<typeof seedPeople>>;
let subscriberId: number;
let clientId: number;
let lateSundayId: number;

/** An instant given as Nairobi wall-clock time (UTC+3 all year). */
const nairobi = (local: string) => new Date(`${local}+03:00`);
const get = (url: string, token = p.admin) => t.as(token, { method: 'GET', url });

interface Figures { tips: number; bet4me: number; unclaimed: number; total: number; refunded: number; net: number; count: number }

/**
 * What the income report must say, computed straight from the payments table: every payment but
 * rejected ones whose time of payment (M-Pesa's, else when it reached us) is in the Nairobi days.
 */
async function paymentsBetween(from: string, to: string): Promise<Figures> {
  const { start, end } = nairobiRange({ from, to });
  const [r] = await rows<Record<string, string | number>>(
    t.deps.db,
    sql`select coalesce(sum(amount_cents) filter (where subscriber_id is not null), 0) as tips,
               coalesce(sum(amount_cents) filter (where client_id is not null), 0) as bet4me,
               coalesce(sum(amount_cents) filter (where client_id is null and subscriber_id is null), 0) as unclaimed,
               coalesce(sum(amount_cents), 0) as total, count(*) as n
          from ${mpesaPayments}
         where status <> 'rejected'
           and coalesce(trans_time, received_at) >= ${start!.toISOString()} and coalesce(trans_time, received_at) < ${end!.toISOString()}`,
  );
  // Refunds are their own line, on the day M-Pesa confirmed them (issue 29); net is what stays.
  const [refunded] = await rows<{ cents: string | number }>(
    t.deps.db,
    sql`select coalesce(sum(amount_cents), 0) as cents from refunds
         where status = 'done' and completed_at >= ${start!.toISOString()} and completed_at < ${end!.toISOString()}`,
  );
  const refundedCents = Number(refunded!.cents);
  // Cents to KES exactly as the API does: one division of an integer.
  return {
    tips: Number(r!.tips) / 100,
    bet4me: Number(r!.bet4me) / 100,
    unclaimed: Number(r!.unclaimed) / 100,
    total: Number(r!.total) / 100,
    refunded: refundedCents / 100,
    net: (Number(r!.total) - refundedCents) / 100,
    count: Number(r!.n),
  };
}

async function storePayment(v: { cents: number; at: Date | null; receivedAt?: Date; source: 'c2b' | 'stk' | 'pull' | 'statement'; owner: 'client' | 'subscriber' | 'none' | 'rejected' }) {
  const [row] = await t.deps.db
    .insert(mpesaPayments)
    .values({
      transId: receipt(),
      source: v.source,
      amountCents: v.cents,
      transTime: v.at,
      receivedAt: v.receivedAt ?? v.at ?? new Date(),
      raw: { test: true },
      status: v.owner === 'rejected' ? 'rejected' : v.owner === 'none' ? 'unclaimed' : 'claimed',
      clientId: v.owner === 'client' ? clientId : null,
      subscriberId: v.owner === 'subscriber' ? subscriberId : null,
    })
    .returning({ id: mpesaPayments.id });
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  ref = await seedPeople(t);
  p = await people(t);
  subscriberId = await ref.person('subscriber', 'Mary Wanjiru', '254722000111');
  clientId = await addClient(t.deps.db, { name: 'Brian Mwangi', staffId: p.staffId });

  // Both sides of Nairobi midnight between Sunday 8 and Monday 9 March (a week boundary too).
  lateSundayId = await storePayment({ cents: 10_001, at: nairobi('2026-03-08T23:59:00'), source: 'c2b', owner: 'none' });
  await storePayment({ cents: 25_050, at: nairobi('2026-03-09T00:01:00'), source: 'stk', owner: 'subscriber' });
  await storePayment({ cents: 100_000, at: nairobi('2026-03-10T12:00:00'), source: 'pull', owner: 'client' });
  await storePayment({ cents: 50_000, at: nairobi('2026-03-10T13:00:00'), source: 'c2b', owner: 'rejected' });
  // No M-Pesa time: it counts when it reached us.
  await storePayment({ cents: 3_333, at: null, receivedAt: nairobi('2026-03-11T08:00:00'), source: 'statement', owner: 'none' });
  // Both sides of the month boundary.
  await storePayment({ cents: 7_777, at: nairobi('2026-03-31T23:59:00'), source: 'c2b', owner: 'client' });
  await storePayment({ cents: 1_999, at: nairobi('2026-04-01T00:01:00'), source: 'c2b', owner: 'subscriber' });
  // One through the real C2B webhook (TransTime is Nairobi time), matched to the subscriber by phone.
  const body = c2b({ TransTime: '20260312093000', TransAmount: '120.45', BillRefNumber: 'D2', MSISDN: '254722000111' });
  expect((await confirm(t, body)).statusCode).toBe(200);
  expect(await paymentByReceipt(t, body.TransID as string)).toBeTruthy();
});
afterAll(() => t.close());

describe('GET /api/reports/income', () => {
  it('equals the stored payments per Nairobi day, rejected left out, 23:59 and 00:01 on their own days', async () => {
    const res = await get('/api/reports/income?from=2026-03-08&to=2026-03-09&group=day');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.rows.map((r: { period: string }) => r.period)).toEqual(['2026-03-08', '2026-03-09']);
    expect(body.rows[0]).toMatchObject({ unclaimed: 100.01, tips: 0, bet4me: 0, total: 100.01, count: 1 });
    expect(body.rows[1]).toMatchObject({ tips: 250.5, unclaimed: 0, total: 250.5, count: 1 });
    for (const row of body.rows) expect(row).toMatchObject(await paymentsBetween(row.from, row.to));
    expect(body.total).toEqual(await paymentsBetween('2026-03-08', '2026-03-09'));
  });

  it('groups by Monday-started week: Sunday 23:59 in one week, Monday 00:01 in the next', async () => {
    const body = (await get('/api/reports/income?from=2026-03-02&to=2026-03-15&group=week')).json();
    expect(body.rows.map((r: { period: string; from: string; to: string }) => [r.period, r.from, r.to])).toEqual([
      ['2026-03-02', '2026-03-02', '2026-03-08'],
      ['2026-03-09', '2026-03-09', '2026-03-15'],
    ]);
    expect(body.rows[0]).toMatchObject({ total: 100.01, count: 1 });
    for (const row of body.rows) expect(row).toMatchObject(await paymentsBetween(row.from, row.to));
    const expected = await paymentsBetween('2026-03-02', '2026-03-15');
    expect(body.total).toEqual(expected);
    // 100.01 + 250.50 + 1000.00 + 33.33 + 120.45: the rejected 500 is not income.
    expect(expected.total).toBe(1504.29);
  });

  it('groups by calendar month, cutting the first and last to the range, to the cent', async () => {
    const body = (await get('/api/reports/income?from=2026-02-15&to=2026-04-10&group=month')).json();
    expect(body.rows.map((r: { period: string; from: string; to: string }) => [r.period, r.from, r.to])).toEqual([
      ['2026-02-01', '2026-02-15', '2026-02-28'],
      ['2026-03-01', '2026-03-01', '2026-03-31'],
      ['2026-04-01', '2026-04-01', '2026-04-10'],
    ]);
    expect(body.rows[0]).toMatchObject({ total: 0, count: 0 });
    expect(body.rows[2]).toMatchObject({ tips: 19.99, total: 19.99, count: 1 });
    for (const row of body.rows) expect(row).toMatchObject(await paymentsBetween(row.from, row.to));
    expect(body.total).toEqual(await paymentsBetween('2026-02-15', '2026-04-10'));
    const sum = body.rows.reduce((s: number, r: { total: number }) => s + Math.round(r.total * 100), 0);
    expect(sum).toBe(Math.round(body.total.total * 100));
  });

  it('follows a claim: the payment moves from unclaimed to tips in the same day', async () => {
    const claimed = await t.as(p.admin, {
      method: 'POST',
      url: '/api/mpesa-transactions/claim',
      payload: { transaction_id: lateSundayId, subscriber_id: subscriberId },
    });
    expect(claimed.statusCode).toBe(200);
    const body = (await get('/api/reports/income?from=2026-03-08&to=2026-03-08')).json();
    expect(body.rows[0]).toMatchObject({ tips: 100.01, unclaimed: 0, total: 100.01, count: 1 });
    expect(body.total).toEqual(await paymentsBetween('2026-03-08', '2026-03-08'));
  });

  it('exports the rows as CSV', async () => {
    const res = await get('/api/reports/income/export?from=2026-03-02&to=2026-03-15&group=week');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('Period,From,To,Tips (KES),Bet4Me (KES),Unclaimed (KES),Total (KES),Payments,Refunded (KES),Net (KES)');
    expect(lines).toHaveLength(3);
    const week = await paymentsBetween('2026-03-09', '2026-03-15');
    expect(lines[2]).toBe(`2026-03-09,2026-03-09,2026-03-15,${week.tips.toFixed(2)},${week.bet4me.toFixed(2)},${week.unclaimed.toFixed(2)},${week.total.toFixed(2)},${week.count},${week.refunded.toFixed(2)},${week.net.toFixed(2)}`);
  });

  it('validates the range: 422 on a bad date, an end before the start or a range past the cap', async () => {
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      ['to=2026-3-1', 'to'],
      ['from=2026-03-10&to=2026-03-01', 'to'],
      ['from=2025-01-01&to=2026-03-01&group=day', 'to'],
      ['group=fortnight', 'group'],
    ] as const) {
      const res = await get(`/api/reports/income?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().errors, query).toHaveProperty(field);
    }
  });

  it('is in the OpenAPI document with its query', async () => {
    const doc = (await t.as(null, { method: 'GET', url: '/api/docs/json' })).json();
    const params = doc.paths['/api/reports/income'].get.parameters.map((x: { name: string }) => x.name);
    expect(params).toEqual(expect.arrayContaining(['from', 'to', 'group']));
    expect(doc.paths['/api/reports/staff/export']).toBeDefined();
  });

  it('defaults to the last 30 Nairobi days by day', async () => {
    const body = (await get('/api/reports/income')).json();
    expect(body.group).toBe('day');
    expect(body.rows).toHaveLength(30);
  });

  it('is for admins only (403 for staff, 401 without a session)', async () => {
    for (const path of ['income', 'sources', 'sales', 'staff', 'income/export', 'staff/export']) {
      expect((await get(`/api/reports/${path}`, p.staff)).statusCode, path).toBe(403);
      expect((await t.as(null, { method: 'GET', url: `/api/reports/${path}` })).statusCode, path).toBe(401);
    }
  });
});

describe('GET /api/reports/sources', () => {
  it('splits M-Pesa income by source and adds what staff recorded by hand', async () => {
    await t.deps.db.insert(subscriptions).values({
      subscriberId,
      betCategoryId: ref.d2.id,
      medium: 'sms',
      durationDays: 7,
      amountCents: 40_000,
      startsAt: nairobi('2026-03-12T10:00:00'),
      expiresAt: nairobi('2026-03-19T10:00:00'),
      createdAt: nairobi('2026-03-12T10:00:00'),
      source: 'manual',
    });
    const body = (await get('/api/reports/sources?from=2026-03-09&to=2026-03-15&group=week')).json();
    const bySource = await rows<{ source: string; cents: string }>(
      t.deps.db,
      sql`select source, sum(amount_cents) as cents from ${mpesaPayments}
           where status <> 'rejected' and coalesce(trans_time, received_at) >= ${nairobi('2026-03-09T00:00:00').toISOString()}
             and coalesce(trans_time, received_at) < ${nairobi('2026-03-16T00:00:00').toISOString()} group by source`,
    );
    const cents = Object.fromEntries(bySource.map((r) => [r.source, Number(r.cents)]));
    expect(body.total).toMatchObject({
      c2b: (cents.c2b ?? 0) / 100,
      stk: (cents.stk ?? 0) / 100,
      pull: (cents.pull ?? 0) / 100,
      statement: (cents.statement ?? 0) / 100,
      manual: 400,
    });
    expect(body.total.mpesa).toBe((await paymentsBetween('2026-03-09', '2026-03-15')).total);
    expect(Math.round(body.total.total * 100)).toBe(Math.round(body.total.mpesa * 100) + 40_000);
  });

  it('reads manual records through their partial indexes, not a scan of subscriptions or bonus payments', async () => {
    await t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const plan = await explain(manualIncomeQuery({ from: '2026-03-09', to: '2026-03-15' }), tx);
      expect(plan.indexes).toEqual(expect.arrayContaining(['subscriptions_manual_created_idx', 'bonus_payments_manual_paid_idx']));
      expect(plan.seqScans).toEqual([]);
    });
  });
});

describe('GET /api/reports/sales', () => {
  it('sums subscriptions by bet category and medium, and by plan, reversed ones left out', async () => {
    const at = nairobi('2026-03-13T09:00:00');
    const base = { durationDays: 7, startsAt: at, expiresAt: nairobi('2026-03-20T09:00:00'), createdAt: at, source: 'mpesa' as const };
    await t.deps.db.insert(subscriptions).values([
      { ...base, subscriberId, betCategoryId: ref.d2.id, medium: 'web', amountCents: 10_000 },
      { ...base, subscriberId, betCategoryId: ref.ov.id, medium: 'sms', amountCents: 5_050 },
      { ...base, subscriberId, betCategoryId: ref.ov.id, medium: 'sms', amountCents: 9_999, reversedAt: at },
      { ...base, clientId, planId: ref.monthly.id, amountCents: 300_000 },
    ]);
    const body = (await get('/api/reports/sales?from=2026-03-13&to=2026-03-13&group=day')).json();
    const line = (key: string) => body.total.find((l: { key: string }) => l.key === key);
    expect(line(`tips:${ref.d2.id}:web`)).toMatchObject({ kind: 'tips', name: 'Daily 2 Odds', medium: 'web', count: 1, amount: 100 });
    expect(line(`tips:${ref.ov.id}:sms`)).toMatchObject({ name: 'Over 2.5', medium: 'sms', count: 1, amount: 50.5 });
    expect(line(`bet4me:${ref.monthly.id}`)).toMatchObject({ kind: 'bet4me', name: 'Monthly', medium: null, count: 1, amount: 3000 });
    expect(body.rows[0]).toMatchObject({ period: '2026-03-13', count: 3, amount: 3150.5 });
  });
});

describe('GET /api/reports/staff', () => {
  it('gives each staff member their bets, profit and bonuses, equal to the bets table', async () => {
    const open = async (stake: number) =>
      (await t.as(p.staff, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, stake, description: 'Arsenal win' } })).json().bet_id as number;
    const won = await open(200);
    const lost = await open(150);
    await open(99.5);
    expect((await t.as(p.staff, { method: 'POST', url: '/api/bets/update', payload: { bet_id: won, profit: 300 } })).statusCode).toBe(200);
    expect((await t.as(p.staff, { method: 'POST', url: '/api/bets/update', payload: { bet_id: lost, profit: -150 } })).statusCode).toBe(200);
    const paid = await t.as(p.admin, { method: 'POST', url: '/api/bonuses/pay', payload: { client_id: clientId, amount: 10, description: 'Cash' } });
    expect(paid.statusCode).toBe(200);

    const today = (await get('/api/reports/income')).json().to as string;
    const body = (await get(`/api/reports/staff?from=${today}&to=${today}`)).json();
    const mine = body.rows.find((r: { user_id: number | null }) => r.user_id === p.staffId);
    const [expected] = await rows<Record<string, string | number>>(
      t.deps.db,
      sql`select count(*) as opened, sum(stake_cents) as stake,
                 count(*) filter (where status = 'closed') as closed, coalesce(sum(profit_cents), 0) as profit,
                 (select coalesce(sum(b.amount_cents), 0) from ${bonuses} b join ${bets} x on x.id = b.bet_id where x.opened_by = ${p.staffId}) as earned,
                 (select coalesce(sum(a.amount_cents), 0) from ${bonusAllocations} a join ${bonuses} b on b.id = a.bonus_id
                    join ${bets} x on x.id = b.bet_id where x.opened_by = ${p.staffId}) as paid
            from ${bets} where opened_by = ${p.staffId}`,
    );
    expect(mine).toMatchObject({
      name: 'Wanjiku Kamau',
      clients: 1,
      bets_opened: Number(expected!.opened),
      stake: Number(expected!.stake) / 100,
      bets_closed: Number(expected!.closed),
      profit: Number(expected!.profit) / 100,
      bonus_earned: Number(expected!.earned) / 100,
      bonus_paid: Number(expected!.paid) / 100,
    });
    expect(mine).toMatchObject({ bets_opened: 3, stake: 449.5, bets_closed: 2, profit: 150 });
    expect(mine.bonus_earned).toBeGreaterThan(0);
    expect(mine.bonus_paid).toBe(10);
    const [manual] = await rows<{ n: string }>(t.deps.db, sql`select count(*) as n from ${bonusPayments} where source = 'manual'`);
    expect(Number(manual!.n)).toBe(1);
  });
});
