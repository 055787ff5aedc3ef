import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { nairobiDayOf } from '@betdesk/contract';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;

const DAY = 86_400_000;
const today = nairobiDayOf(new Date());
const weekStart = nairobiDayOf(new Date(Date.now() - 6 * DAY));
const get = (url: string) => t.as(p.admin, { method: 'GET', url }).then((r) => r.json());

async function winningBet(clientId: number, profit: number): Promise<void> {
  const bet = await t.as(p.admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, stake: 100, description: 'x' } });
  await t.as(p.admin, { method: 'POST', url: '/api/bets/update', payload: { bet_id: bet.json().bet_id, profit } });
}

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  const brian = await addClient(t.deps.db, { name: 'Brian Mwangi', staffId: p.staffId });
  const kevin = await addClient(t.deps.db, { name: 'Kevin Otieno', staffId: p.staffId });
  await winningBet(brian, 1000); // bonus 300
  await winningBet(kevin, 2000); // bonus 600
  const pay = (client_id: number, amount: number) =>
    t.as(p.admin, { method: 'POST', url: '/api/bonuses/pay', payload: { client_id, amount, description: 'Cash' } });
  await pay(brian, 300);
  await pay(kevin, 100);
  // Brian's bonus and its payment belong to a month ago; the summaries follow (triggers).
  await t.deps.db.execute(sql`update bonuses set earned_at = now() - interval '30 days' where amount_cents = 30000`);
  await t.deps.db.execute(sql`update bonus_payments set paid_at = now() - interval '30 days' where amount_cents = 30000`);
});
afterAll(() => t.close());

describe('bonus payments screen totals follow the chosen days', () => {
  it('gives all-time totals without days', async () => {
    expect(await get('/api/bonuses/paid')).toMatchObject({ total_bonus: 900, paid_bonus: 400, pending_bonus: 500, total_records: 2 });
  });

  it('gives the last 7 days: paid in them (the rows), earned in them and what of that is unpaid', async () => {
    const body = await get(`/api/bonuses/paid?from=${weekStart}&to=${today}`);
    expect(body).toMatchObject({ total_records: 1, paid_bonus: 100, total_bonus: 600, pending_bonus: 500 });
    expect(body.bonuses.map((b: { amount: number }) => b.amount)).toEqual([100]);
  });

  it('gives zero for days with nothing', async () => {
    expect(await get('/api/bonuses/paid?from=2020-01-01&to=2020-01-07')).toMatchObject({
      total_records: 0,
      paid_bonus: 0,
      total_bonus: 0,
      pending_bonus: 0,
    });
  });

  it('keeps the bonus list totals over the bonuses earned in the days', async () => {
    expect(await get(`/api/bonuses?from=${weekStart}&to=${today}`)).toMatchObject({ total_records: 1, total_bonus: 600, paid_bonus: 100 });
  });
});
