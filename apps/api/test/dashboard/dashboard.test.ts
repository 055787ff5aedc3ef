import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';
import { c2b, confirm } from '../mpesa/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;
let mine: number;

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  mine = await addClient(t.deps.db, { name: 'Brian Mwangi', staffId: p.staffId });
  const theirs = await addClient(t.deps.db, { name: 'Kevin Otieno', staffId: p.otherStaffId });
  await addClient(t.deps.db, { name: 'Mary Njeri', active: false, staffId: p.staffId });
  for (const clientId of [mine, theirs]) {
    const bet = await t.as(p.admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, stake: 100, description: 'x' } });
    await t.as(p.admin, { method: 'POST', url: '/api/bets/update', payload: { bet_id: bet.json().bet_id, profit: 100 } });
    await t.as(p.admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, stake: 100, description: 'y' } });
  }
});
afterAll(() => t.close());

describe('GET /api/dashboard', () => {
  it('gives an admin every figure of the spec', async () => {
    const res = await t.as(p.admin, { method: 'GET', url: '/api/dashboard' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      ['active_clients', 'recent_payments', 'sms_balance', 'total_active_clients', 'total_income', 'total_income_today', 'total_open_bets', 'total_pending_bonus'].sort(),
    );
    expect(body).toMatchObject({ total_active_clients: 2, total_open_bets: 2, total_pending_bonus: 2, sms_balance: 1000, total_income: 0 });
    expect(Object.keys(body.active_clients[0]).sort()).toEqual(['client_id', 'name', 'phone', 'photo', 'total_open_bets']);
  });

  it('shows a recent payment with no known phone by the masked number M-Pesa sent, as /mpesa does', async () => {
    const payment = c2b({ BillRefNumber: 'WHO', MSISDN: '2547 ***** 465', FirstName: 'PETER', LastName: 'OTIENO' });
    await confirm(t, payment);
    const body = (await t.as(p.admin, { method: 'GET', url: '/api/dashboard' })).json();
    const row = body.recent_payments.find((r: { transaction_reference: string }) => r.transaction_reference === payment.TransID);
    expect(row).toMatchObject({ name: 'PETER OTIENO', phone: null, sender_msisdn: '2547 ***** 465' });
    const listed = (await t.as(p.admin, { method: 'GET', url: `/api/mpesa-transactions?search=${String(payment.TransID)}` })).json();
    expect(listed.transactions[0].sender_msisdn).toBe(row.sender_msisdn);
  });

  it('gives staff counts of their own clients and no income or SMS balance', async () => {
    const body = (await t.as(p.staff, { method: 'GET', url: '/api/dashboard' })).json();
    expect(Object.keys(body).sort()).toEqual(['active_clients', 'recent_payments', 'total_active_clients', 'total_open_bets', 'total_pending_bonus']);
    expect(body).toMatchObject({ total_active_clients: 1, total_open_bets: 1, total_pending_bonus: 1 });
    expect(body.active_clients).toEqual([{ client_id: mine, name: 'Brian Mwangi', phone: expect.any(String), photo: null, total_open_bets: 1 }]);
  });

  it("counts a staff member's unpaid bonuses as their unpaid bonuses list does, as bonuses are paid and earned", async () => {
    const pending = async () => (await t.as(p.staff, { method: 'GET', url: '/api/dashboard' })).json().total_pending_bonus;
    const listed = async () => (await t.as(p.staff, { method: 'GET', url: '/api/bonuses/unpaid' })).json().total_records;
    const unpaid = (await t.as(p.admin, { method: 'GET', url: '/api/bonuses/unpaid' })).json();
    const bonus = unpaid.bonuses.find((b: { client_id: number }) => b.client_id === mine);
    // Part of it paid: still unpaid.
    await t.as(p.admin, { method: 'POST', url: '/api/bonuses/pay', payload: { client_id: mine, amount: 1, description: 'part' } });
    expect([await pending(), await listed()]).toEqual([1, 1]);
    // The rest paid: none left.
    const rest = Number(bonus.bonus) - 1;
    const paid = await t.as(p.admin, { method: 'POST', url: '/api/bonuses/pay', payload: { client_id: mine, amount: rest, description: 'rest' } });
    expect(paid.statusCode).toBe(200);
    expect([await pending(), await listed()]).toEqual([0, 0]);
    // Another win: one again. Another staff member's client's bonus never counts.
    const bet = await t.as(p.admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: mine, stake: 100, description: 'z' } });
    await t.as(p.admin, { method: 'POST', url: '/api/bets/update', payload: { bet_id: bet.json().bet_id, profit: 300 } });
    expect([await pending(), await listed()]).toEqual([1, 1]);
  });

  it('needs a session', async () => {
    expect((await t.as(null, { method: 'GET', url: '/api/dashboard' })).statusCode).toBe(401);
  });
});

describe('GET /api/dashboard/income', () => {
  it('gives an admin 30 days of income, one row per day', async () => {
    const body = (await t.as(p.admin, { method: 'GET', url: '/api/dashboard/income' })).json();
    expect(body.days).toHaveLength(30);
    expect(body.days[29]).toEqual({ day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), amount: 0 });
  });

  it('is for admins only', async () => {
    expect((await t.as(p.staff, { method: 'GET', url: '/api/dashboard/income' })).statusCode).toBe(403);
  });
});
