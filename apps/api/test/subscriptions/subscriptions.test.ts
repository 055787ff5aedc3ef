import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nairobiDayOf } from '@betdesk/contract';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';
import { c2b, confirm, paymentByReceipt } from '../mpesa/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;
let brian: number;

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  brian = await addClient(t.deps.db, { name: 'Brian Mwangi', staffId: p.staffId });
  await addClient(t.deps.db, { name: 'Mary Njeri', active: false });
});
afterAll(() => t.close());

const get = (token: string | null, url: string) => t.as(token, { method: 'GET', url });
const keys = ['subscriptions', 'total_income', 'total_income_today', 'total_records'];

describe('Bet4Me subscriptions', () => {
  it('lists recent subscriptions (last 30 days) with income totals', async () => {
    const body = (await get(p.admin, '/api/subscriptions?page=1&perPage=50')).json();
    expect(Object.keys(body).sort()).toEqual(keys);
    expect(body).toMatchObject({ total_records: 1, total_income: 2000, total_income_today: 1000 });
    expect(body.subscriptions[0]).toMatchObject({ name: 'Brian Mwangi', status_id: 1, status_name: 'Active', amount: 1000, duration: 7 });
  });

  it('lists every subscription, lapsed ones with status 0', async () => {
    const body = (await get(p.admin, '/api/subscriptions/all')).json();
    expect(body.total_records).toBe(2);
    expect(body.subscriptions.map((s: { status_id: number }) => s.status_id)).toEqual([1, 0]);
  });

  it('gives each row its status as both status and status_id (1 green, 0 red) with status_name', async () => {
    const body = (await get(p.admin, '/api/subscriptions/all')).json();
    expect(body.subscriptions.map((s: Record<string, unknown>) => [s.status, s.status_id, s.status_name])).toEqual([
      [1, 1, 'Active'],
      [0, 0, 'Expired'],
    ]);
  });

  it('lets chosen days replace the recent window, rows and income alike', async () => {
    const [, old] = (await get(p.admin, '/api/subscriptions/all')).json().subscriptions;
    const today = nairobiDayOf(new Date());
    const week = (await get(p.admin, `/api/subscriptions?from=${nairobiDayOf(new Date(Date.now() - 6 * 86_400_000))}&to=${today}`)).json();
    expect(week).toMatchObject({ total_records: 1, total_income: 1000, total_income_today: 1000 });
    const oldDay = nairobiDayOf(new Date(old.done_on));
    const then = (await get(p.admin, `/api/subscriptions?from=${oldDay}&to=${oldDay}`)).json();
    expect(then).toMatchObject({ total_records: 1, total_income: old.amount });
    expect(then.subscriptions.map((s: { id: number }) => s.id)).toEqual([old.id]);
  });

  it('is for admins only', async () => {
    expect((await get(p.staff, '/api/subscriptions')).statusCode).toBe(403);
    expect((await get(p.staff, '/api/subscriptions/all/export')).statusCode).toBe(403);
    expect((await get(null, '/api/subscriptions/all')).statusCode).toBe(401);
  });

  it('exports every subscription as CSV', async () => {
    const res = await get(p.admin, '/api/subscriptions/all/export');
    expect(res.body.trim().split('\r\n')).toHaveLength(3);
  });
});

describe('Income from Bet4Me subscriptions', () => {
  it('counts a subscription bought by a payment, and stops counting it once the payment is unclaimed', async () => {
    const body = c2b({ BillRefNumber: `B4M${brian}`, TransAmount: '1000.00' });
    await confirm(t, body);
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    expect(payment.clientId).toBe(brian);
    const bought = (await get(p.admin, '/api/subscriptions/all')).json();
    expect(bought).toMatchObject({ total_records: 3, total_income: 3000, total_income_today: 2000 });

    const unclaimed = await t.as(p.admin, { method: 'POST', url: '/api/mpesa-transactions/unclaim', payload: { transaction_id: payment.id } });
    expect(unclaimed.statusCode).toBe(200);
    const after = (await get(p.admin, '/api/subscriptions/all')).json();
    expect(after).toMatchObject({ total_records: 3, total_income: 2000, total_income_today: 1000 });
    expect(after.subscriptions[0]).toMatchObject({ amount: 1000, status: 0, status_id: 0, status_name: 'Reversed' });
    expect((await get(p.admin, '/api/subscriptions')).json()).toMatchObject({ total_income: 2000, total_income_today: 1000 });
  });
});
