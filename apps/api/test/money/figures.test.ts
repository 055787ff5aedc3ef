import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { nairobiDayOf } from '@betdesk/contract';
import { rows } from '../../src/db/rows.ts';
import { compactSummaries, summed, type SummaryPrefix } from '../../src/db/summaries.ts';
import {
  BONUS_KEYS,
  INCOME_KEYS,
  UNCLAIMED_KEYS,
  incomeFromRows,
  isUnpaidBonus,
  paidBonusCents,
  paymentDay,
  totalBonusCents,
  unclaimedFromRows,
  unpaidBonusCents,
} from '../../src/db/money.ts';
import { createTestApp, ADMIN, type TestApp } from '../helpers.ts';
import { addClient } from '../clients/fixtures.ts';
import { c2b, confirm, seedPeople } from '../mpesa/fixtures.ts';

/**
 * Each money figure has one definition (docs/decisions/027-money-figures-defined-once.md). After a
 * random but repeatable mix of writes, the day summaries the triggers keep equal each definition
 * computed straight from the rows, to the cent, and each list's totals equal the sum of its rows.
 */

let t: TestApp;
let admin: string;
const clientIds: number[] = [];

/** A small seeded generator (mulberry32), so a failure replays the same writes. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const post = (url: string, payload: object) => t.as(admin, { method: 'POST', url, payload });
const get = (url: string) => t.as(admin, { method: 'GET', url });
const one = async (query: SQL) => {
  const [r] = await rows<{ cents: string; n: string }>(t.deps.db, query);
  return { cents: Number(r?.cents ?? 0), n: Number(r?.n ?? 0) };
};
const cents = (kes: number) => Math.round(kes * 100);
const sumOf = (items: Record<string, unknown>[], field: string) => items.reduce((s, r) => s + cents(Number(r[field])), 0);

async function applyRandomWrites(seed: number, steps: number) {
  const next = random(seed);
  const pick = <T>(xs: T[]): T | undefined => xs[Math.floor(next() * xs.length)];
  for (let i = 0; i < steps; i += 1) {
    const roll = next();
    const db = t.deps.db;
    if (roll < 0.25) {
      const stake = 50 + Math.floor(next() * 2000) + (next() < 0.5 ? 0.5 : 0);
      expect((await post('/api/bets/save', { client_id: pick(clientIds)!, stake, description: `Match ${i}` })).statusCode).toBe(200);
    } else if (roll < 0.45) {
      const open = await rows<{ id: string; stake_cents: string }>(db, sql`select id, stake_cents from bets where status = 'open' order by id`);
      const bet = pick(open);
      if (!bet) continue;
      const stake = Number(bet.stake_cents) / 100;
      const profit = next() < 0.3 ? -Math.round(stake * next() * 100) / 100 : Math.round(next() * 500_000) / 100;
      expect((await post('/api/bets/update', { bet_id: Number(bet.id), profit })).statusCode).toBe(200);
    } else if (roll < 0.65) {
      // Unmatched confirmations wait unclaimed; some are exactly a plan's price (KES 1,000).
      const amount = next() < 0.3 ? '1000.00' : `${10 + Math.floor(next() * 3000)}.${String(Math.floor(next() * 100)).padStart(2, '0')}`;
      const answer = await confirm(t, c2b({ TransAmount: amount, BillRefNumber: `ZZ${seed}-${i}`, MSISDN: `25470${String(2_000_000 + i)}` }));
      expect(answer.statusCode).toBe(200);
    } else if (roll < 0.8) {
      const waiting = await rows<{ id: string }>(db, sql`select id from mpesa_payments where status = 'unclaimed' order by id`);
      const payment = pick(waiting);
      if (!payment) continue;
      const answer = await post('/api/mpesa-transactions/claim', { transaction_id: Number(payment.id), client_id: pick(clientIds)! });
      expect(answer.statusCode).toBe(200);
    } else if (roll < 0.88) {
      const claimed = await rows<{ id: string }>(db, sql`select id from mpesa_payments where status = 'claimed' and client_id is not null order by id`);
      const payment = pick(claimed);
      if (!payment) continue;
      expect((await post('/api/mpesa-transactions/unclaim', { transaction_id: Number(payment.id) })).statusCode).toBe(200);
    } else {
      const owing = await rows<{ client_id: number; unpaid: string }>(
        db,
        sql`select bo.client_id, sum(${unpaidBonusCents('bo')}) as unpaid from bonuses bo group by bo.client_id having sum(${unpaidBonusCents('bo')}) > 0 order by 1`,
      );
      const client = pick(owing);
      if (!client) continue;
      const amount = Math.max(1, Math.floor(Number(client.unpaid) * next())) / 100;
      expect((await post('/api/bonuses/pay', { client_id: client.client_id, amount, description: 'Cash' })).statusCode).toBe(200);
    }
  }
}

/** Each figure straight from the rows, by its definition. */
async function figuresFromRows(today: string) {
  const bonus = (expr: SQL, where: SQL = sql`true`) =>
    one(sql`select coalesce(sum(${expr}), 0) as cents, count(*) as n from bonuses bo where ${where}`);
  const todaySql = sql`${paymentDay('p')} = ${today}::date`;
  const [total, paid, unpaid, allocated, income, incomeToday, unclaimed, paidBonusesN] = await Promise.all([
    bonus(totalBonusCents('bo')),
    bonus(paidBonusCents('bo')),
    bonus(unpaidBonusCents('bo'), isUnpaidBonus('bo')),
    one(sql`select coalesce(sum(amount_cents), 0) as cents, 0 as n from bonus_allocations`),
    one(incomeFromRows()),
    one(incomeFromRows(todaySql)),
    one(unclaimedFromRows()),
    bonus(paidBonusCents('bo'), sql`bo.paid_cents > 0`),
  ]);
  return { total, paid: { cents: paid.cents, n: paidBonusesN.n }, unpaid, allocated: allocated.cents, income, incomeToday, unclaimed };
}

async function figuresFromSummaries(today: string) {
  const db = t.deps.db;
  const read = async (keys: SummaryPrefix | readonly SummaryPrefix[], range?: { from: string; to: string }) => {
    const s = await summed(db, keys, range);
    return { cents: s.amount_cents, n: s.n };
  };
  const paid = await read(BONUS_KEYS.paid);
  return {
    total: await read(BONUS_KEYS.total),
    paid,
    unpaid: await read(BONUS_KEYS.unpaid),
    // The bonus ledger: what the allocations of bonus payments say was paid.
    allocated: paid.cents,
    income: await read(INCOME_KEYS),
    incomeToday: await read(INCOME_KEYS, { from: today, to: today }),
    unclaimed: await read(UNCLAIMED_KEYS),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  await seedPeople(t);
  await t.addUser({ email: 'boss@x.test', categoryId: ADMIN });
  admin = await t.tokenFor('boss@x.test');
  for (let i = 0; i < 5; i += 1) clientIds.push(await addClient(t.deps.db, { name: `Figure ${i}` }));
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('money figures defined once', () => {
  it.each([20261125, 7, 42])('summaries equal each definition after random writes (seed %i)', async (seed) => {
    await applyRandomWrites(seed, 40);
    const today = nairobiDayOf(new Date());
    const truth = await figuresFromRows(today);
    expect(truth.total.cents).toBeGreaterThan(0);
    expect(truth.income.cents).toBeGreaterThan(0);
    expect(await figuresFromSummaries(today)).toEqual(truth);
    await compactSummaries(t.deps.db);
    expect(await figuresFromSummaries(today)).toEqual(truth);
  }, 300_000);

  it("equals each list's totals to the sum of its rows", async () => {
    const bonusesPage = (await get('/api/bonuses?page=1&perPage=2000')).json();
    expect(bonusesPage.bonuses.length).toBe(bonusesPage.total_records);
    expect(cents(bonusesPage.total_bonus)).toBe(sumOf(bonusesPage.bonuses, 'bonus'));
    expect(cents(bonusesPage.pending_bonus)).toBe(sumOf(bonusesPage.bonuses, 'pending_bonus'));

    const unpaidPage = (await get('/api/bonuses/unpaid?page=1&perPage=2000')).json();
    expect(unpaidPage.bonuses.length).toBe(unpaidPage.total_records);
    expect(cents(unpaidPage.pending_bonus)).toBe(sumOf(unpaidPage.bonuses, 'pending_bonus'));
    expect(unpaidPage.bonuses.every((b: { pending_bonus: number }) => b.pending_bonus > 0)).toBe(true);

    const paidPage = (await get('/api/bonuses/paid?page=1&perPage=2000')).json();
    expect(cents(paidPage.paid_bonus)).toBe(sumOf(paidPage.bonuses, 'amount'));

    // The clients list: each client's pending, paid and total bonus and balance add up to the business's.
    const clientsPage = (await get('/api/clients?page=1&perPage=2000')).json();
    const list = clientsPage.clients as Record<string, unknown>[];
    expect(sumOf(list, 'pending_bonus')).toBe(cents(bonusesPage.pending_bonus));
    expect(sumOf(list, 'total_bonus')).toBe(cents(bonusesPage.total_bonus));
    expect(sumOf(list, 'paid_bonus')).toBe((await one(sql`select coalesce(sum(amount_cents), 0) as cents, 0 as n from bonus_allocations`)).cents);
    for (const c of list) expect(cents(Number(c.pending_bonus))).toBe(cents(Number(c.total_bonus)) - cents(Number(c.paid_bonus)));
    const ledger = await one(sql`select coalesce(sum(amount_cents), 0) as cents, 0 as n from ledger_entries where client_id is not null`);
    expect(sumOf(list, 'account_balance')).toBe(ledger.cents);

    // The M-Pesa totals boxes (unclaimed, deposits) and the dashboard's income, against the rows.
    const unclaimed = await one(unclaimedFromRows());
    const income = await one(incomeFromRows());
    const waiting = (await get('/api/mpesa-transactions/unclaimed?page=1&perPage=2000')).json();
    expect(waiting.transactions.length).toBe(unclaimed.n);
    expect(cents(waiting.total_unclaimed)).toBe(sumOf(waiting.transactions, 'amount'));
    expect(cents(waiting.total_unclaimed)).toBe(unclaimed.cents);
    const all = (await get('/api/mpesa-transactions?page=1&perPage=2000')).json();
    const received = (all.transactions as Record<string, unknown>[]).filter((p) => p.status !== 'rejected');
    expect(cents(all.total_deposit)).toBe(sumOf(received, 'amount'));
    expect(cents(all.total_deposit)).toBe(income.cents);
    const dashboard = (await get('/api/dashboard')).json();
    expect(cents(dashboard.total_income)).toBe(income.cents);
  }, 120_000);
});
