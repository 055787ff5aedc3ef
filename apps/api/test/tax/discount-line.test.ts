/**
 * A sale made with a promo code carries its discount on the eTIMS line (decision 081): list price in
 * prc and splyAmt, the discount in dcRt and dcAmt, the amount paid in taxblAmt, pinned to the cent
 * for a percent code whose price was rounded up and a fixed-KES-off code; the fake OSCU refuses a line
 * whose figures do not relate; the VAT return's taxable value stays the amount after discount.
 * Lives in: apps/api/test/tax/discount-line.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { pricePackages, subscriptions, taxInvoices } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import { salesRequest, transmitDueInvoices } from '../../src/modules/tax/service.ts';
import { initialiseTaxDevice, signInToPortal, type TestApp } from '../helpers.ts';
import { appWithFakeDaraja, declaredAdult, paymentByReceipt, SANDBOX_PASSKEY } from '../mpesa/fixtures.ts';
import { signedInStaff, tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';
import { textOf } from './pdf-text.ts';

let t: TestApp;
let fake: FakeDaraja;
let oscu: FakeOscu;
let ref: TipsReference;
let admin: string;

const DAY = 86_400_000;
const running = () => ({ starts_on: new Date(Date.now() - DAY).toISOString(), ends_on: new Date(Date.now() + 30 * DAY).toISOString() });

beforeAll(async () => {
  oscu = await startFakeOscu();
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  ref = await tipsReference(t.deps.db);
  ({ admin } = await signedInStaff(t));
  await t.deps.db.update(pricePackages).set({ priceCents: 14_900 }).where(eq(pricePackages.id, ref.d2WebWeek));
  await initialiseTaxDevice(t, admin, oscu.baseUrl);
  for (const payload of [
    { code: 'TEN', kind: 'percent', percent_off: 10, package_ids: [ref.d2WebWeek], ...running(), one_per_phone: true, first_purchase_only: false },
    { code: 'TWENTY', kind: 'fixed', amount_off: 20, package_ids: [ref.d2WebWeek], ...running(), one_per_phone: true, first_purchase_only: false },
  ]) {
    expect((await t.as(admin, { method: 'POST', url: '/api/promotions/codes', payload })).statusCode).toBe(200);
  }
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await oscu.close();
});

const signIn = (local: string): Promise<string> => signInToPortal(t, local, `10.8.${local.slice(-2)}.1`);

/** A portal purchase of the KES 149 package with a code; returns the sale's invoice after KRA took it. */
async function boughtWith(local: string, code: string | undefined, receipt: string) {
  await declaredAdult(t, `254${local.slice(1)}`);
  const cookie = await signIn(local);
  fake.outcomes.push({ resultCode: 0, callback: true, receipt });
  const bought = await t.app.inject({ method: 'POST', url: '/api/portal/purchase', payload: { package_id: ref.d2WebWeek, ...(code ? { code } : {}) }, headers: { cookie } });
  expect(bought.statusCode).toBe(200);
  await fake.settled();
  const payment = (await paymentByReceipt(t, receipt))!;
  const [sale] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
  expect(sale).toBeTruthy();
  await t.deps.db.execute(sql`update tax_invoices set next_attempt_at = now() where status = 'queued'`);
  expect((await transmitDueInvoices(t.deps)).rejected).toBe(0);
  const [invoice] = await t.deps.db.select().from(taxInvoices).where(and(eq(taxInvoices.subscriptionId, sale!.id), eq(taxInvoices.kind, 'invoice')));
  expect(invoice).toMatchObject({ status: 'sent' });
  const sent = oscu.sales.get(`P051234567X/00/${invoice!.number}`) as { itemList: Record<string, unknown>[] } & Record<string, unknown>;
  return { invoice: invoice!, sent, line: sent.itemList[0]! };
}

describe('the eTIMS line of a sale made with a promo code', () => {
  it('10 % off KES 149: the price asked is KES 135 (rounded up), the line carries 14.00 off at 9.40 %', async () => {
    const { invoice, sent, line } = await boughtWith('0712000801', 'ten', 'SDL5000001');
    expect(fake.pushes.at(-1)).toMatchObject({ Amount: 135 });
    expect(invoice).toMatchObject({ amountCents: 13_500, taxCents: 1862, taxType: 'B' });
    expect(line).toMatchObject({ qty: 1, prc: 149, splyAmt: 149, dcRt: 9.4, dcAmt: 14, taxblAmt: 135, taxAmt: 18.62, totAmt: 135, taxTyCd: 'B' });
    expect(sent).toMatchObject({ totTaxblAmt: 135, taxblAmtB: 135, totTaxAmt: 18.62, taxAmtB: 18.62, totAmt: 135 });
    // The item is registered at its list price, not the discounted one.
    expect(oscu.items.get(`P051234567X/00/${String(line.itemCd)}`)).toMatchObject({ dftPrc: 149 });
    // The printable invoice shows the same line: list price, discount and rate, the amount paid.
    const pdf = await t.as(admin, { method: 'GET', url: `/api/tax/invoices/${invoice.id}/document?lang=en` });
    expect(pdf.statusCode).toBe(200);
    const text = await textOf(pdf.rawPayload);
    expect(text).toContain('List price (KES): 149.00');
    expect(text).toContain('Discount (KES): 14.00 (9.40%)');
    expect(text).toContain('Amount (KES): 135.00');
    expect(text).toContain('Taxable value: 116.38');
  });

  it('KES 20 off KES 149: the line carries 20.00 off at 13.42 %', async () => {
    const { invoice, line } = await boughtWith('0712000802', 'TWENTY', 'SDL5000002');
    expect(invoice).toMatchObject({ amountCents: 12_900, taxCents: 1779 });
    expect(line).toMatchObject({ prc: 149, splyAmt: 149, dcRt: 13.42, dcAmt: 20, taxblAmt: 129, taxAmt: 17.79, totAmt: 129 });
  });

  it('a sale at list price sends no discount', async () => {
    const { invoice, line } = await boughtWith('0712000803', undefined, 'SDL5000003');
    expect(line).toMatchObject({ prc: 149, splyAmt: 149, dcRt: 0, dcAmt: 0, taxblAmt: 149, taxAmt: 20.55, totAmt: 149 });
    const text = await textOf((await t.as(admin, { method: 'GET', url: `/api/tax/invoices/${invoice.id}/document?lang=en` })).rawPayload);
    expect(text).not.toContain('Discount');
    expect(text).toContain('Amount (KES): 149.00');
  });

  it('the fake OSCU refuses a line whose price, discount and taxable amount do not relate', async () => {
    const [invoice] = await t.deps.db.select().from(taxInvoices).where(eq(taxInvoices.amountCents, 13_500));
    const headers = { 'content-type': 'application/json', tin: 'P051234567X', bhfid: '00' };
    const init = (await (await fetch(`${oscu.baseUrl}/selectInitOsdcInfo`, { method: 'POST', headers, body: JSON.stringify({ dvcSrlNo: 'X' }) })).json()) as {
      data: { info: { cmcKey: string } };
    };
    const send = async (change: Record<string, unknown>) => {
      const body = salesRequest({ tin: 'P051234567X', branchId: '00' }, { ...invoice!, number: 900_000 + Object.keys(change).length }, null, { listPriceCents: 14_900, discountCents: 1400 });
      body.itemList = [{ ...body.itemList[0]!, ...change }];
      const res = await fetch(`${oscu.baseUrl}/saveTrnsSalesOsdc`, { method: 'POST', headers: { ...headers, cmckey: init.data.info.cmcKey }, body: JSON.stringify(body) });
      return ((await res.json()) as { resultCd: string }).resultCd;
    };
    expect(await send({ taxblAmt: 149 })).toBe('910'); // taxable not supply − discount
    expect(await send({ dcRt: 10 })).toBe('910'); // rate not the discount's share of the supply
    expect(await send({ splyAmt: 135, dcAmt: 0, dcRt: 0 })).toBe('910'); // supply not price × quantity
    expect(oscu.sales.has('P051234567X/00/900001')).toBe(false);
  });

  it("the VAT return's taxable value is the amount after discount", async () => {
    const month = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 7); // Nairobi's month
    const res = await t.as(admin, { method: 'GET', url: `/api/tax/returns/vat?month=${month}` });
    expect(res.statusCode).toBe(200);
    // 135 + 129 + 149 paid, VAT inside them 18.62 + 17.79 + 20.55: the discounts are in no figure.
    expect(res.json().summary).toEqual([{ rate: 'B', count: 3, taxable: 356.04, vat: 56.96, total: 413 }]);
  });
});
