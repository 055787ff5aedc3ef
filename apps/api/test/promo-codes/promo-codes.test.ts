/**
 * Promo codes (decision 077): an admin's codes (validation naming the field, roles, paging), the
 * portal's price and purchase with a code (the STK push asks the discounted price, the sale is made
 * at it), a wrong or spent code saying why in both languages, the cap and one-per-phone rule under 20
 * concurrent uses, and the promotion report.
 * Lives in: apps/api/test/promo-codes/promo-codes.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { promoCodes, promoCodeUses, subscriptions } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { priceWithCode, takeUse, isRefusal, type PromoPrice } from '../../src/modules/promo-codes/service.ts';
import { setLanguage } from '../../src/modules/sms/languages.ts';
import { signInToPortal, type TestApp } from '../helpers.ts';
import { appWithFakeDaraja, declaredAdult, paymentByReceipt, SANDBOX_PASSKEY } from '../mpesa/fixtures.ts';
import { signedInStaff, tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: TipsReference;
let admin: string;
let staff: string;

beforeAll(async () => {
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  ref = await tipsReference(t.deps.db);
  ({ admin, staff } = await signedInStaff(t));
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const DAY = 86_400_000;
const running = () => ({ starts_on: new Date(Date.now() - DAY).toISOString(), ends_on: new Date(Date.now() + 30 * DAY).toISOString() });

const create = (token: string, payload: object) => t.as(token, { method: 'POST', url: '/api/promotions/codes', payload });

const signIn = (local: string): Promise<string> => signInToPortal(t, local, `10.7.${local.slice(-2)}.1`);
const asPortal = (cookie: string, url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: { cookie } });

describe('an admin creates and changes codes', () => {
  it('refuses bad input with a 422 naming the field, and a staff member with a 403', async () => {
    const good = { code: 'radio10', kind: 'percent', percent_off: 10, package_ids: [ref.d2WebWeek], ...running(), max_uses: 100, one_per_phone: true, first_purchase_only: false };
    const bad: [object, string][] = [
      [{ ...good, code: 'RADIO 10!' }, 'code'],
      [{ ...good, percent_off: null }, 'percent_off'],
      [{ ...good, kind: 'fixed', percent_off: null }, 'amount_off'],
      [{ ...good, package_ids: [] }, 'package_ids'],
      [{ ...good, package_ids: [999_999] }, 'package_ids'],
      [{ ...good, ends_on: good.starts_on }, 'ends_on'],
      [{ ...good, max_uses: 0 }, 'max_uses'],
    ];
    for (const [payload, field] of bad) {
      const res = await create(admin, payload);
      expect(res.statusCode, field).toBe(422);
      expect(Object.keys(res.json().errors ?? {}), field).toContain(field);
    }
    expect((await create(staff, good)).statusCode).toBe(403);
    expect((await t.as(staff, { method: 'GET', url: '/api/promotions/codes?page=1&perPage=50' })).statusCode).toBe(403);
    expect(await t.deps.db.select().from(promoCodes)).toHaveLength(0);

    const made = await create(admin, good);
    expect(made.statusCode).toBe(200);
    expect(made.json().code).toMatchObject({ code: 'RADIO10', kind: 'percent', percent_off: 10, uses: 0, packages: [expect.any(String)] });
    // Codes are one without case.
    const again = await create(admin, { ...good, code: 'Radio10' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.code).toBeDefined();

    const id = made.json().code.id as number;
    const put = await t.as(admin, { method: 'PUT', url: `/api/promotions/codes/${id}`, payload: { ...good, code: 'RADIO10', max_uses: 50 } });
    expect(put.statusCode).toBe(200);
    expect(put.json().code.max_uses).toBe(50);
    expect((await t.as(staff, { method: 'PUT', url: `/api/promotions/codes/${id}`, payload: good })).statusCode).toBe(403);
    expect((await t.as(admin, { method: 'PUT', url: `/api/promotions/codes/999999`, payload: good })).statusCode).toBe(404);

    const page = await t.as(admin, { method: 'GET', url: '/api/promotions/codes?page=1&perPage=50' });
    expect(page.json()).toMatchObject({ total_records: 1, codes: [expect.objectContaining({ code: 'RADIO10' })] });
    expect((await t.as(admin, { method: 'GET', url: '/api/promotions/codes?page=1&perPage=7' })).statusCode).toBe(422);
  });
});

describe('a punter uses a code on the portal', () => {
  it('is told the price asked, pays it by STK push, and the sale is made at it', async () => {
    await declaredAdult(t, '254711000501');
    const cookie = await signIn('0711000501');
    const price = await asPortal(cookie, '/api/portal/price', { package_id: ref.d2WebWeek, code: 'radio10' });
    expect(price.statusCode).toBe(200);
    expect(price.json()).toEqual({ package_id: ref.d2WebWeek, code: 'RADIO10', days: null, list_price: 400, discount: 40, price: 360 });

    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'SPR5000001' });
    const bought = await asPortal(cookie, '/api/portal/purchase', { package_id: ref.d2WebWeek, code: 'RADIO10' });
    expect(bought.statusCode).toBe(200);
    expect(fake.pushes.at(-1)).toMatchObject({ PartyA: '254711000501', Amount: 360, AccountReference: 'D2' });
    await fake.settled();
    const payment = await paymentByReceipt(t, 'SPR5000001');
    const [sale] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment!.id));
    expect(sale).toMatchObject({ packageId: ref.d2WebWeek, amountCents: 36_000 });
    const [use] = await t.deps.db.select().from(promoCodeUses).where(eq(promoCodeUses.paymentId, payment!.id));
    expect(use).toMatchObject({ status: 'used', channel: 'portal', listPriceCents: 40_000, discountCents: 4_000, priceCents: 36_000, subscriptionId: sale!.id });

    // One use per phone: the second time says why.
    const twice = await asPortal(cookie, '/api/portal/price', { package_id: ref.d2WebWeek, code: 'RADIO10' });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.code[0]).toBe('This number has already used promo code RADIO10.');

    const report = await t.as(admin, { method: 'GET', url: '/api/reports/promotions' });
    expect(report.statusCode).toBe(200);
    expect(report.json().rows).toEqual([expect.objectContaining({ code: 'RADIO10', uses: 1, income: 360, discount: 40 })]);
    const csv = await t.as(admin, { method: 'GET', url: '/api/reports/promotions/export' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('RADIO10');
    expect((await t.as(staff, { method: 'GET', url: '/api/reports/promotions' })).statusCode).toBe(403);
  });

  it('a cancelled push gives the use back', async () => {
    await declaredAdult(t, '254711000502');
    const cookie = await signIn('0711000502');
    const before = (await t.deps.db.select().from(promoCodes).where(eq(promoCodes.code, 'RADIO10')))[0]!.uses;
    fake.outcomes.push({ resultCode: 1032, callback: true });
    expect((await asPortal(cookie, '/api/portal/purchase', { package_id: ref.d2WebWeek, code: 'RADIO10' })).statusCode).toBe(200);
    await fake.settled();
    expect((await t.deps.db.select().from(promoCodes).where(eq(promoCodes.code, 'RADIO10')))[0]!.uses).toBe(before);
    expect((await asPortal(cookie, '/api/portal/price', { package_id: ref.d2WebWeek, code: 'RADIO10' })).statusCode).toBe(200);
  });

  it('a wrong, expired or spent code says why, in English and Kiswahili', async () => {
    const cookie = await signIn('0711000503');
    const wrong = await asPortal(cookie, '/api/portal/price', { package_id: ref.d2WebWeek, code: 'NOSUCH' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code[0]).toBe('There is no promo code NOSUCH. Check it and try again.');
    await create(admin, { code: 'OLD5', kind: 'fixed', amount_off: 5, package_ids: [ref.d2WebWeek], starts_on: new Date(Date.now() - 9 * DAY).toISOString(), ends_on: new Date(Date.now() - DAY).toISOString() });
    expect((await asPortal(cookie, '/api/portal/price', { package_id: ref.d2WebWeek, code: 'old5' })).json().errors.code[0]).toBe('Promo code OLD5 has expired.');
    await create(admin, { code: 'ONE', kind: 'fixed', amount_off: 50, package_ids: [ref.d2WebWeek], ...running(), max_uses: 1, one_per_phone: false });
    const one = (await priceWithCode(t.deps.db, { codeText: 'ONE', packageId: ref.d2WebWeek, listPriceCents: 40_000, phone: '254711000599' })) as PromoPrice;
    expect(await t.deps.db.transaction((tx) => takeUse(tx, one, { phone: '254711000599', packageId: ref.d2WebWeek, channel: 'portal', status: 'used' }))).toHaveProperty('useId');
    expect((await asPortal(cookie, '/api/portal/price', { package_id: ref.d2WebWeek, code: 'ONE' })).json().errors.code[0]).toBe('Promo code ONE has been used up.');
    await setLanguage(t.deps.db, { phone: '254711000503', language: 'sw', source: 'portal', by: null });
    expect((await asPortal(cookie, '/api/portal/price', { package_id: ref.d2WebWeek, code: 'ONE' })).json().errors.code[0]).toBe('Msimbo wa punguzo ONE umeshatumika wote.');
    expect((await asPortal(cookie, '/api/portal/price', { package_id: ref.d2SmsWeek, code: 'RADIO10' })).json().errors.code[0]).toBe('Msimbo wa punguzo RADIO10 si wa kifurushi hiki.');
  });
});

describe('uses are counted exactly', () => {
  it('holds the cap and one use per phone under 20 concurrent redemptions', async () => {
    await create(admin, { code: 'CAP5', kind: 'percent', percent_off: 25, package_ids: [ref.d2WebWeek], ...running(), max_uses: 5, one_per_phone: false });
    await create(admin, { code: 'ONCE', kind: 'percent', percent_off: 25, package_ids: [ref.d2WebWeek], ...running(), one_per_phone: true });
    const attempt = async (code: string, phone: string) => {
      const price = await priceWithCode(t.deps.db, { codeText: code, packageId: ref.d2WebWeek, listPriceCents: 40_000, phone });
      if (isRefusal(price)) return false;
      const taken = await t.deps.db.transaction((tx) => takeUse(tx, price, { phone, packageId: ref.d2WebWeek, channel: 'paybill', status: 'used' }));
      return !isRefusal(taken);
    };
    const capped = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt('CAP5', `2547110006${String(i).padStart(2, '0')}`)));
    expect(capped.filter(Boolean)).toHaveLength(5);
    const once = await Promise.all(Array.from({ length: 20 }, () => attempt('ONCE', '254711000700')));
    expect(once.filter(Boolean)).toHaveLength(1);
    const rows = await t.deps.db.select().from(promoCodes);
    expect(rows.find((r) => r.code === 'CAP5')!.uses).toBe(5);
    expect(rows.find((r) => r.code === 'ONCE')!.uses).toBe(1);
  });
});
