import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, pricePackages } from '../../src/db/schema/index.ts';
import { type TestApp } from '../helpers.ts';
import { tipsApp, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp, ref: TipsReference, admin: string, staff: string;

beforeAll(async () => {
  ({ t, ref, admin, staff } = await tipsApp());
});
afterAll(() => t.close());

const update = (token: string | null, body: Record<string, unknown>) =>
  t.as(token, { method: 'POST', url: '/api/tips/prices/update', payload: body });

describe('tips prices', () => {
  it('lists web and SMS packages with name, price in KES and duration in days', async () => {
    const web = await t.as(admin, { method: 'GET', url: '/api/tips/prices/web-tips' });
    expect(web.statusCode).toBe(200);
    expect(web.json()).toEqual({ packages: [{ id: ref.d2WebWeek, name: 'D2 Web weekly', duration: 7, price: 400, billing: 'period' }] });
    const sms = await t.as(admin, { method: 'GET', url: '/api/tips/prices/sms-tips' });
    expect(sms.json().packages.map((p: { name: string }) => p.name)).toEqual([
      'D2 SMS weekly',
      'D2 SMS monthly',
      'O15 SMS weekly',
    ]);
  });

  it("saves a price with the spec's text and audits the change", async () => {
    const res = await update(admin, { bet_category_price_id: ref.d2SmsWeek, name: 'D2 SMS 1 week', price: '550.50' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ info: 'Price saved successfully' });
    const [pkg] = await t.deps.db.select().from(pricePackages).where(eq(pricePackages.id, ref.d2SmsWeek));
    expect(pkg).toMatchObject({ name: 'D2 SMS 1 week', priceCents: 55_050 });
    const [row] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'price-package.update'));
    expect(row).toMatchObject({
      before: { name: 'D2 SMS weekly', price_cents: 50_000 },
      after: { name: 'D2 SMS 1 week', price_cents: 55_050 },
    });
  });

  it('refuses a price that is not a positive amount, naming the price', async () => {
    for (const price of ['abc', -10, 0, '', '12.345', null]) {
      const res = await update(admin, { bet_category_price_id: ref.d2SmsWeek, name: 'D2', price });
      expect(res.statusCode, `price ${String(price)}`).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['price']);
    }
  });

  it('answers 404 for an unknown package', async () => {
    expect((await update(admin, { bet_category_price_id: 9999, name: 'x', price: 10 })).statusCode).toBe(404);
  });

  it('is for admins only', async () => {
    const body = { bet_category_price_id: ref.d2SmsWeek, name: 'Staff price', price: 1 };
    expect((await update(staff, body)).statusCode).toBe(403);
    expect((await t.as(staff, { method: 'GET', url: '/api/tips/prices/web-tips' })).statusCode).toBe(403);
    expect((await t.as(staff, { method: 'GET', url: '/api/tips/prices/sms-tips' })).statusCode).toBe(403);
    expect((await update(null, body)).statusCode).toBe(401);
    expect((await t.as(null, { method: 'GET', url: '/api/tips/prices/sms-tips' })).statusCode).toBe(401);
  });
});
