import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/rows.ts';
import { compactSummaries, refreshSummaries, summed, summedByDay } from '../../src/db/summaries.ts';
import { createTestApp, ADMIN, type TestApp } from '../helpers.ts';
import { addClient } from '../clients/fixtures.ts';
import { c2b, confirm, seedPeople } from '../mpesa/fixtures.ts';

/**
 * The day summaries must equal the base rows to the cent, whatever order and interleaving the money
 * changes come in: concurrent confirmations, claims, unclaims, profits and bonus payments.
 */

let t: TestApp;
let admin: string;
let clientIds: number[] = [];

/** The truth, computed from the base tables by plain aggregates the screens used to run. */
async function baseTotals() {
  const [r] = await rows<Record<string, string>>(
    t.deps.db,
    sql`select
      (select coalesce(sum(amount_cents), 0) from mpesa_payments where status = 'claimed') as claimed,
      (select coalesce(sum(amount_cents), 0) from mpesa_payments where status = 'unclaimed') as unclaimed,
      (select count(*) from mpesa_payments where status = 'unclaimed') as unclaimed_n,
      (select count(*) from bets where status = 'open') as open_n,
      (select coalesce(sum(stake_cents), 0) from bets where status = 'open') as open_stake,
      (select count(*) from bets where status = 'closed') as closed_n,
      (select coalesce(sum(profit_cents), 0) from bets where status = 'closed') as profit,
      (select coalesce(sum(amount_cents), 0) from bonuses) as bonus,
      (select coalesce(sum(amount_cents), 0) from bonus_allocations) as bonus_paid,
      (select count(*) from bonuses b where b.amount_cents > (select coalesce(sum(a.amount_cents), 0) from bonus_allocations a where a.bonus_id = b.id)) as unpaid_n,
      (select coalesce(sum(amount_cents), 0) from bonus_payments) as bonus_payments,
      (select coalesce(sum(amount_cents), 0) from subscriptions where client_id is not null and reversed_at is null) as bet4me_sold,
      (select count(*) from clients where deleted_at is null) as clients`,
  );
  return Object.fromEntries(Object.entries(r!).map(([k, v]) => [k, Number(v)]));
}

async function summaryTotals() {
  const db = t.deps.db;
  const unclaimed = await summed(db, 'payment:unclaimed:');
  const open = await summed(db, 'bet:open:');
  return {
    claimed: (await summed(db, 'payment:claimed:')).amount_cents,
    unclaimed: unclaimed.amount_cents,
    unclaimed_n: unclaimed.n,
    open_n: open.n,
    open_stake: open.amount_cents,
    closed_n: (await summed(db, 'bet:closed:')).n,
    profit: (await summed(db, 'bet:profit:')).amount_cents,
    bonus: (await summed(db, 'bonus:earned:')).amount_cents,
    bonus_paid: (await summed(db, 'bonus:paid:')).amount_cents,
    unpaid_n: (await summed(db, 'bonus:unpaid:')).n,
    bonus_payments: (await summed(db, 'bonus_payment')).amount_cents,
    bet4me_sold: (await summed(db, 'subscription:client:')).amount_cents,
    clients: (await summed(db, 'client')).n,
  };
}

const post = (url: string, payload: unknown) => t.as(admin, { method: 'POST', url, payload: payload as object });

beforeAll(async () => {
  t = await createTestApp();
  await seedPeople(t);
  await t.addUser({ email: 'boss@x.test', categoryId: ADMIN });
  admin = await t.tokenFor('boss@x.test');
  clientIds = [];
  for (let i = 0; i < 6; i += 1) clientIds.push(await addClient(t.deps.db, { name: `Client ${i}` }));
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('day summaries', () => {
  it('equal the base rows after concurrent confirmations, claims, unclaims, profits and bonus payments', async () => {
    // Payments nobody can match: they wait unclaimed.
    const confirmations = Array.from({ length: 24 }, (_, i) =>
      confirm(t, c2b({ TransAmount: `${100 + i}.50`, BillRefNumber: `ZZ${i}`, MSISDN: `25470${String(1_000_000 + i)}` })),
    );
    // Bets on every client, at the same time.
    const bets = clientIds.flatMap((clientId, i) =>
      [1, 2, 3].map((k) => post('/api/bets/save', { client_id: clientId, stake: 100 * k + i, description: `Match ${i}-${k}` })),
    );
    const answers = await Promise.all([...confirmations, ...bets]);
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);

    const unclaimed = await rows<{ id: string }>(t.deps.db, sql`select id from mpesa_payments where status = 'unclaimed' order by id`);
    const open = await rows<{ id: string; stake_cents: string }>(t.deps.db, sql`select id, stake_cents from bets where status = 'open' order by id`);
    expect(unclaimed.length).toBe(24);

    // Claims, profits (wins and losses) and, interleaved, a compaction.
    const claims = unclaimed.slice(0, 16).map((p, i) =>
      post('/api/mpesa-transactions/claim', { transaction_id: Number(p.id), client_id: clientIds[i % clientIds.length] }),
    );
    const profits = open.slice(0, 14).map((b, i) =>
      post('/api/bets/update', { bet_id: Number(b.id), profit: i % 3 === 0 ? -Number(b.stake_cents) / 100 : 1000 + i * 7.25 }),
    );
    const settled = await Promise.all([...claims, ...profits, compactSummaries(t.deps.db)]);
    expect(settled.slice(0, -1).every((a) => typeof a === 'object' && a.statusCode === 200)).toBe(true);

    // Unclaims of some claims, and bonus payments, at once.
    const unclaims = unclaimed.slice(0, 5).map((p) => post('/api/mpesa-transactions/unclaim', { transaction_id: Number(p.id) }));
    const owing = await rows<{ client_id: number; unpaid: string }>(
      t.deps.db,
      sql`select client_id, sum(amount_cents - paid_cents) as unpaid from bonuses group by client_id having sum(amount_cents - paid_cents) > 0`,
    );
    expect(owing.length).toBeGreaterThan(0);
    const pays = owing.map((o) =>
      post('/api/bonuses/pay', { client_id: o.client_id, amount: Math.floor(Number(o.unpaid) / 200), description: 'Part payment' }),
    );
    const done = await Promise.all([...unclaims, ...pays]);
    expect(done.map((a) => a.statusCode)).toEqual(done.map(() => 200));

    const truth = await baseTotals();
    expect(truth.claimed).toBeGreaterThan(0);
    expect(truth.bonus_paid).toBeGreaterThan(0);
    expect(await summaryTotals()).toEqual(truth);

    // Folding the deltas in changes no figure, and leaves no delta behind.
    await compactSummaries(t.deps.db);
    const [left] = await rows<{ n: string }>(t.deps.db, sql`select count(*) as n from summary_deltas`);
    expect(Number(left!.n)).toBe(0);
    expect(await summaryTotals()).toEqual(truth);
  }, 120_000);

  it('keeps bonuses.paid_cents equal to the sum of their allocations', async () => {
    const off = await rows<{ id: string }>(
      t.deps.db,
      sql`select b.id from bonuses b
           where b.paid_cents <> (select coalesce(sum(a.amount_cents), 0) from bonus_allocations a where a.bonus_id = b.id)`,
    );
    expect(off).toEqual([]);
  });

  it('are rebuilt exactly from rows loaded with the triggers off (db:refresh-summaries)', async () => {
    const before = await summedByDay(t.deps.db, '');
    const truth = await baseTotals();
    // A bulk load straight into the base tables, as an import or a restore does it: no trigger runs.
    await t.deps.database.executeSql(`
      set session_replication_role = replica;
      insert into mpesa_payments (trans_id, source, amount_cents, status, raw, received_at)
        values ('BULK000001', 'c2b', 12345, 'unclaimed', '{}', '2026-03-01T21:30:00Z');
      update bonuses set paid_cents = 0;
      set session_replication_role = origin;`);
    expect((await summed(t.deps.db, 'payment:unclaimed:')).amount_cents).toBe(truth.unclaimed);

    await refreshSummaries(t.deps.db);

    expect(await summaryTotals()).toEqual({ ...truth, unclaimed: truth.unclaimed! + 12345, unclaimed_n: truth.unclaimed_n! + 1 });
    // 21:30 UTC on 1 March is already 2 March in Nairobi.
    const bulkDay = await summedByDay(t.deps.db, 'payment:unclaimed:none:c2b', { from: '2026-03-02', to: '2026-03-02' });
    expect(bulkDay).toEqual([{ key: 'payment:unclaimed:none:c2b', day: '2026-03-02', n: 1, amount_cents: 12345 }]);
    const after = await summedByDay(t.deps.db, '');
    expect(after.filter((r) => r.day !== '2026-03-02' || r.key !== 'payment:unclaimed:none:c2b')).toEqual(
      before.filter((r) => r.day !== '2026-03-02' || r.key !== 'payment:unclaimed:none:c2b'),
    );
  }, 60_000);
});
