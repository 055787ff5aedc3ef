import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, bet4mePlans, betCategories, postCategories, pricePackages, tipsSubscribers } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { people } from '../clients/fixtures.ts';
import { c2b, confirm, declaredAdult, paymentByReceipt, subscriptionsOfPayment } from '../mpesa/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;

beforeAll(async () => {
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  p = await people(t);
});
afterAll(() => t.close());

type Payload = Record<string, unknown>;
const post = (token: string | null, url: string, payload: Payload) => t.as(token, { method: 'POST', url, payload });
const catalogue = (token: string | null = p.admin) => t.as(token, { method: 'GET', url: '/api/catalogue' });
const storeBetCategory = (payload: Payload, token: string | null = p.admin) =>
  post(token, '/api/catalogue/bet-categories/store', payload);
const storePostCategory = (payload: Payload, token: string | null = p.admin) =>
  post(token, '/api/catalogue/post-categories/store', payload);
const storePlan = (payload: Payload, token: string | null = p.admin) => post(token, '/api/catalogue/plans/store', payload);
const storePackage = (payload: Payload, token: string | null = p.admin) => post(token, '/api/tips/prices/store', payload);

async function auditRows(action: string, entityId: number) {
  return t.deps.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(entityId))));
}

async function categoryByCode(code: string) {
  const [found] = await t.deps.db.select().from(betCategories).where(eq(betCategories.code, code));
  return found!;
}

describe('bet categories', () => {
  it('adds one with its code upper-cased, audited', async () => {
    const res = await storeBetCategory({ name: 'Daily 2 Odds', code: ' d2 ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ info: 'Bet category saved successfully' });
    const d2 = await categoryByCode('D2');
    expect(d2.name).toBe('Daily 2 Odds');
    const [row] = await auditRows('bet-category.create', d2.id);
    expect(row).toMatchObject({ actorUserId: p.adminId, entity: 'bet_category', before: null, after: { name: 'Daily 2 Odds', code: 'D2' } });
  });

  it('renames one and changes its code, with before and after', async () => {
    await storeBetCategory({ name: 'Over 2.5', code: 'OV' });
    const ov = await categoryByCode('OV');
    const res = await storeBetCategory({ id: ov.id, name: 'Over 2.5 Goals', code: 'OV25' });
    expect(res.statusCode).toBe(200);
    const [row] = await auditRows('bet-category.update', ov.id);
    expect(row).toMatchObject({ before: { name: 'Over 2.5', code: 'OV' }, after: { name: 'Over 2.5 Goals', code: 'OV25' } });
    expect((await categoryByCode('OV25')).id).toBe(ov.id);
  });

  it('refuses a code another category has, whatever its case, naming code', async () => {
    const res = await storeBetCategory({ name: 'Double', code: 'd2' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ code: ['Another bet category already has this code'] });
  });

  it('lets a category keep its own code when renamed', async () => {
    const d2 = await categoryByCode('D2');
    expect((await storeBetCategory({ id: d2.id, name: 'Daily Double', code: 'D2' })).statusCode).toBe(200);
    await storeBetCategory({ id: d2.id, name: 'Daily 2 Odds', code: 'D2' });
  });

  it.each([
    ['a blank code', { name: 'X', code: '  ' }, 'code', /code is required/],
    ['a code with punctuation', { name: 'X', code: 'D-2' }, 'code', /letters and digits/],
    ['a code longer than 10', { name: 'X', code: 'ABCDEFGHIJK' }, 'code', /longer than 10/],
    ['the code a record block keeps for every category', { name: 'X', code: 'all' }, 'code', /ALL stands for every category/],
    ['a blank name', { name: ' ', code: 'X1' }, 'name', /name is required/],
  ])('refuses %s with a 422 naming the field', async (_what, body, field, message) => {
    const res = await storeBetCategory(body);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
    expect(res.json().errors[field][0]).toMatch(message);
  });

  it('answers 404 for an id that does not exist', async () => {
    expect((await storeBetCategory({ id: 999_999, name: 'Ghost', code: 'GH' })).statusCode).toBe(404);
  });
});

describe('post categories', () => {
  it('adds and renames one, audited', async () => {
    expect((await storePostCategory({ name: 'Football' })).statusCode).toBe(200);
    const [football] = await t.deps.db.select().from(postCategories).where(eq(postCategories.name, 'Football'));
    const res = await storePostCategory({ id: football!.id, name: 'Soccer' });
    expect(res.json()).toEqual({ info: 'Post category saved successfully' });
    expect(await auditRows('post-category.create', football!.id)).toHaveLength(1);
    const [row] = await auditRows('post-category.update', football!.id);
    expect(row).toMatchObject({ before: { name: 'Football' }, after: { name: 'Soccer' } });
  });

  it('refuses a name another category has, naming name', async () => {
    const res = await storePostCategory({ name: 'soccer' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['name']);
  });
});

describe('Bet4Me plans', () => {
  it('adds one and takes it off sale, audited in cents', async () => {
    const res = await storePlan({ name: 'Weekly', duration: '7', price: '1,000', active: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ info: 'Plan saved successfully' });
    const [weekly] = await t.deps.db.select().from(bet4mePlans).where(eq(bet4mePlans.name, 'Weekly'));
    expect(weekly).toMatchObject({ durationDays: 7, priceCents: 100_000, active: true });
    await storePlan({ id: weekly!.id, name: 'Weekly', duration: 7, price: 1200.5, active: false });
    const [row] = await auditRows('plan.update', weekly!.id);
    expect(row).toMatchObject({
      entity: 'bet4me_plan',
      before: { name: 'Weekly', duration_days: 7, price_cents: 100_000, active: true },
      after: { name: 'Weekly', duration_days: 7, price_cents: 120_050, active: false },
    });
    const shown = (await catalogue()).json().plans.find((pl: { id: number }) => pl.id === weekly!.id);
    expect(shown).toEqual({ id: weekly!.id, name: 'Weekly', duration: 7, price: 1200.5, active: false, subscriptions: 0 });
  });

  it.each([
    ['a zero duration', { duration: 0 }, 'duration', /at least 1 day/],
    ['a duration above 366 days', { duration: 367 }, 'duration', /more than 366/],
    ['a fractional duration', { duration: 7.5 }, 'duration', /whole number/],
    ['a blank duration', { duration: '' }, 'duration', /duration in days is required/],
    ['a zero price', { price: 0 }, 'price', /positive amount/],
    ['a negative price', { price: -5 }, 'price', /positive amount/],
    ['a blank price', { price: '' }, 'price', /positive amount/],
  ])('refuses %s with a 422 naming the field', async (_what, change, field, message) => {
    const res = await storePlan({ name: 'Monthly', duration: 30, price: 3000, active: true, ...change });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
    expect(res.json().errors[field][0]).toMatch(message);
  });
});

describe('POST /api/tips/prices/store', () => {
  it('adds a package, audited, listed under its medium and counted on its category', async () => {
    const d2 = await categoryByCode('D2');
    const res = await storePackage({ bet_category_id: d2.id, medium: 'sms', name: 'D2 SMS weekly', duration: '7', price: '100' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ info: 'Package added successfully' });
    const [pkg] = await t.deps.db.select().from(pricePackages).where(eq(pricePackages.name, 'D2 SMS weekly'));
    expect(pkg).toMatchObject({ betCategoryId: d2.id, medium: 'sms', durationDays: 7, priceCents: 10_000 });
    const [row] = await auditRows('price-package.create', pkg!.id);
    expect(row).toMatchObject({ actorUserId: p.adminId, after: { medium: 'sms', duration_days: 7, price_cents: 10_000 } });
    const sms = (await t.as(p.admin, { method: 'GET', url: '/api/tips/prices/sms-tips' })).json().packages;
    expect(sms).toContainEqual({ id: pkg!.id, name: 'D2 SMS weekly', duration: 7, price: 100, billing: 'period' });
    const web = (await t.as(p.admin, { method: 'GET', url: '/api/tips/prices/web-tips' })).json().packages;
    expect(web).toEqual([]);
    const shown = (await catalogue()).json().bet_categories.find((b: { id: number }) => b.id === d2.id);
    expect(shown).toEqual({ id: d2.id, name: 'Daily 2 Odds', code: 'D2', sms_packages: 1, web_packages: 0 });
  });

  it('refuses a second package of the same category, medium and duration, naming those fields', async () => {
    const d2 = await categoryByCode('D2');
    const res = await storePackage({ bet_category_id: d2.id, medium: 'sms', name: 'Again', duration: 7, price: 90 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['bet_category_id', 'duration', 'medium']);
    const web = await storePackage({ bet_category_id: d2.id, medium: 'web', name: 'D2 web weekly', duration: 7, price: 90 });
    expect(web.statusCode).toBe(200);
  });

  it.each([
    ['no bet category', { bet_category_id: '' }, 'bet_category_id', /Choose a bet category/],
    ['a bet category that does not exist', { bet_category_id: 999_999 }, 'bet_category_id', /does not exist/],
    ['an unknown medium', { medium: 'fax' }, 'medium', /SMS or Web/],
    ['a zero duration', { duration: 0 }, 'duration', /at least 1 day/],
    ['a blank price', { price: '' }, 'price', /positive amount/],
  ])('refuses %s with a 422 naming the field', async (_what, change, field, message) => {
    const d2 = await categoryByCode('D2');
    const res = await storePackage({ bet_category_id: d2.id, medium: 'sms', name: 'Bad', duration: 30, price: 300, ...change });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
    expect(res.json().errors[field][0]).toMatch(message);
  });
});

describe('a business started from an empty catalogue', () => {
  it('sells a new category: the subscriber form offers it and a C2B payment of its code activates the SMS package', async () => {
    await storeBetCategory({ name: 'Sure Wins', code: 'sw1' });
    const sw = await categoryByCode('SW1');
    await storePackage({ bet_category_id: sw.id, medium: 'sms', name: 'Sure Wins SMS fortnight', duration: 14, price: 250 });
    const [pkg] = await t.deps.db.select().from(pricePackages).where(eq(pricePackages.betCategoryId, sw.id));

    const form = (await t.as(p.staff, { method: 'GET', url: '/api/tips/subscribers/new' })).json();
    expect(form.bet_categories).toContainEqual({ id: sw.id, name: 'Sure Wins', code: 'SW1' });
    expect(form.durations).toMatchObject({ '14': '2 Weeks' });

    const phone = '254722300040';
    const [subscriber] = await t.deps.db
      .insert(tipsSubscribers)
      .values({ name: 'New Payer', phone, phoneHash: sha256Hex(phone) })
      .returning({ id: tipsSubscribers.id });
    await declaredAdult(t, phone); // declared 18+ before paying (decision 066)
    const body = c2b({ BillRefNumber: 'sw1', MSISDN: phone, TransAmount: '250.00' });
    expect((await confirm(t, body)).statusCode).toBe(200);
    const payment = await paymentByReceipt(t, body.TransID as string);
    const [sub] = await subscriptionsOfPayment(t, payment!.id);
    expect(sub).toMatchObject({ subscriberId: subscriber!.id, packageId: pkg!.id, medium: 'sms', durationDays: 14, amountCents: 25_000 });
  });
});

describe('who may change the catalogue', () => {
  it('refuses staff with 403 on every endpoint', async () => {
    expect((await catalogue(p.staff)).statusCode).toBe(403);
    expect((await storeBetCategory({ name: 'X', code: 'X' }, p.staff)).statusCode).toBe(403);
    expect((await storePostCategory({ name: 'X' }, p.staff)).statusCode).toBe(403);
    expect((await storePlan({ name: 'X', duration: 1, price: 1, active: true }, p.staff)).statusCode).toBe(403);
    expect((await storePackage({ bet_category_id: 1, medium: 'sms', name: 'X', duration: 1, price: 1 }, p.staff)).statusCode).toBe(403);
  });

  it('sends anonymous callers to log in with 401', async () => {
    expect((await catalogue(null)).statusCode).toBe(401);
    expect((await storeBetCategory({ name: 'X', code: 'X' }, null)).statusCode).toBe(401);
    expect((await storePostCategory({ name: 'X' }, null)).statusCode).toBe(401);
    expect((await storePlan({ name: 'X', duration: 1, price: 1, active: true }, null)).statusCode).toBe(401);
    expect((await storePackage({ bet_category_id: 1, medium: 'sms', name: 'X', duration: 1, price: 1 }, null)).statusCode).toBe(401);
  });

  it('changed nothing on refused calls', async () => {
    expect(await t.deps.db.select().from(betCategories).where(eq(betCategories.code, 'X'))).toEqual([]);
  });
});
