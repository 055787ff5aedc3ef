import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  await addClient(t.deps.db, { name: 'Brian Mwangi', staffId: p.staffId });
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
