import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers.ts';
import { signedInStaff, tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp;
let ref: TipsReference;
let admin: string;
let staff: string;

beforeAll(async () => {
  t = await createTestApp();
  ref = await tipsReference(t.deps.db);
  ({ admin, staff } = await signedInStaff(t));
  for (const [phone, duration] of [
    ['0711000001', '7'],
    ['0711000002', '30'],
    ['0711000003', '7'],
  ] as const) {
    await t.as(staff, {
      method: 'POST',
      url: '/api/tips/subscribers/store',
      payload: { name: `Subscriber ${phone}`, phone, bet_category_id: ref.d2, transmission_medium_id: 'sms', duration },
    });
  }
  await t.deps.db.execute(
    sql`update subscriptions set expires_at = now() - interval '2 days' where subscriber_id = (select id from tips_subscribers where phone = '254711000003')`,
  );
});
afterAll(() => t.close());

describe('tips subscriptions', () => {
  it('lists every subscription, newest first, for admins', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/tips/subscriptions/all?page=1&perPage=50' });
    expect(res.statusCode).toBe(200);
    expect(res.json().total_records).toBe(3);
    const [newest] = res.json().subscriptions;
    expect(Object.keys(newest).sort()).toEqual(
      ['amount', 'bets', 'done_on', 'duration', 'expiry_date', 'id', 'invoice', 'name', 'phone', 'status', 'status_id', 'status_name', 'subscriber_id'],
    );
    // Issue 28: each subscription read carries its sale's tax invoice (null when it has none).
    expect(newest.invoice).toBeNull();
    // Section 3: status (status_id 1 green, 0 red; status_name), served under both names.
    expect(newest).toMatchObject({ phone: '254711000003', status: 0, status_id: 0, status_name: 'Expired', bets: 'Daily 2 Odds (D2) by SMS' });
  });

  it('lists running subscriptions, soonest expiry first, for staff too', async () => {
    const res = await t.as(staff, { method: 'GET', url: '/api/tips/subscriptions/active' });
    expect(res.statusCode).toBe(200);
    expect(res.json().subscriptions.map((s: { phone: string }) => s.phone)).toEqual(['254711000001', '254711000002']);
    expect(res.json().subscriptions[1]).toMatchObject({ duration: 30, amount: 1500, status: 1, status_id: 1, status_name: 'Active' });
    expect(res.json().total_records).toBe(2);
  });

  it('keeps the all list for admins (403 for staff, 401 without a session)', async () => {
    expect((await t.as(staff, { method: 'GET', url: '/api/tips/subscriptions/all' })).statusCode).toBe(403);
    expect((await t.as(null, { method: 'GET', url: '/api/tips/subscriptions/all' })).statusCode).toBe(401);
    expect((await t.as(null, { method: 'GET', url: '/api/tips/subscriptions/active' })).statusCode).toBe(401);
  });

  it('pages with the spec sizes only', async () => {
    const page2 = await t.as(admin, { method: 'GET', url: '/api/tips/subscriptions/all?page=2&perPage=50' });
    expect(page2.json()).toEqual({ subscriptions: [], total_records: 3 });
    const bad = await t.as(admin, { method: 'GET', url: '/api/tips/subscriptions/all?perPage=3' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['perPage']);
  });
});
