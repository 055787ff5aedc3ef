import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;
let mine: number;
let theirs: number;

async function winningBet(clientId: number, profit: number): Promise<void> {
  const bet = await t.as(p.admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, stake: 100, description: 'x' } });
  await t.as(p.admin, { method: 'POST', url: '/api/bets/update', payload: { bet_id: bet.json().bet_id, profit } });
}

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  mine = await addClient(t.deps.db, { name: 'Brian Mwangi', staffId: p.staffId });
  theirs = await addClient(t.deps.db, { name: 'Kevin Otieno', staffId: p.otherStaffId });
  await winningBet(mine, 1000); // bonus 300
  await winningBet(mine, 500); // bonus 150
  await winningBet(theirs, 2000); // bonus 600
});
afterAll(() => t.close());

const get = (token: string | null, url: string) => t.as(token, { method: 'GET', url });
const pay = (token: string | null, payload: Record<string, unknown>) => t.as(token, { method: 'POST', url: '/api/bonuses/pay', payload });

describe('bonus lists', () => {
  it('lists all bonuses with the admin totals', async () => {
    const body = (await get(p.admin, '/api/bonuses')).json();
    expect(Object.keys(body).sort()).toEqual(['bonuses', 'paid_bonus', 'pending_bonus', 'total_bonus', 'total_records']);
    expect(body).toMatchObject({ total_bonus: 1050, paid_bonus: 0, pending_bonus: 1050, total_records: 3 });
    expect(body.bonuses[0]).toMatchObject({ stake: 100, profit: 2000, bonus: 600, pending_bonus: 600 });
  });

  it('gives staff their own clients and no totals', async () => {
    const body = (await get(p.staff, '/api/bonuses')).json();
    expect(Object.keys(body).sort()).toEqual(['bonuses', 'total_records']);
    expect(body.total_records).toBe(2);
  });

  it('searches by client name or phone', async () => {
    expect((await get(p.admin, '/api/bonuses/search?search=kevin')).json().total_records).toBe(1);
    expect((await get(p.admin, `/api/bonuses/search?search=${encodeURIComponent("x' or '1'='1")}`)).json().total_records).toBe(0);
  });

  it('needs a session', async () => {
    expect((await get(null, '/api/bonuses/unpaid')).statusCode).toBe(401);
  });
});

describe('POST /api/bonuses/pay', () => {
  it('settles pending bonuses oldest first and audits it', async () => {
    const res = await pay(p.admin, { client_id: mine, amount: 350, description: 'Cash at the office' });
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toBe('Bonus payment recorded successfully');
    const unpaid = (await get(p.staff, '/api/bonuses/unpaid')).json();
    expect(unpaid.bonuses.map((b: { pending_bonus: number }) => b.pending_bonus)).toEqual([100]);
    const paid = (await get(p.admin, '/api/bonuses/paid')).json();
    expect(paid).toMatchObject({ paid_bonus: 350, pending_bonus: 700, total_records: 1 });
    expect(paid.bonuses[0]).toMatchObject({ amount: 350, description: 'Cash at the office', client_id: mine });
    const client = (await get(p.admin, `/api/clients/show?client_id=${mine}`)).json().client;
    expect(client).toMatchObject({ pending_bonus: 100, paid_bonus: 350, total_bonus: 450 });
    expect(await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'bonus.pay'))).toHaveLength(1);
  });

  it('refuses more than the pending bonus, naming amount', async () => {
    const res = await pay(p.admin, { client_id: mine, amount: 100.01, description: 'Too much' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.amount[0]).toMatch(/unpaid bonus of/);
  });

  it('refuses a missing description, a zero amount and an unknown client', async () => {
    const res = await pay(p.admin, { client_id: mine, amount: 0 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['amount', 'description']);
    expect((await pay(p.admin, { client_id: 999999, amount: 10, description: 'x' })).statusCode).toBe(404);
  });

  it('is for admins only', async () => {
    expect((await pay(p.staff, { client_id: mine, amount: 10, description: 'x' })).statusCode).toBe(403);
  });
});
