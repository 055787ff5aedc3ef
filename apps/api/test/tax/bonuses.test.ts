import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import { bets, bonusPayments, bonuses, taxInvoices } from '../../src/db/schema/index.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import { transmitDueInvoices } from '../../src/modules/tax/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { c2b, confirm, paymentByReceipt, seedPeople } from '../mpesa/fixtures.ts';

/**
 * Issue 28, decision 035: a bonus payment is invoiced like a sale only when the accountant counts
 * it as income (setting `tax_invoice_bonus_payments`, off by default).
 */
let t: TestApp;
let oscu: FakeOscu;
let admin: string;
let ref: Awaited<ReturnType<typeof seedPeople>>;
let phoneSeq = 0;

beforeAll(async () => {
  oscu = await startFakeOscu();
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  ref = await seedPeople(t);
  await t.addUser({ email: 'bonus-tax-admin@example.com', categoryId: ADMIN });
  admin = await t.tokenFor('bonus-tax-admin@example.com');
  const post = (url: string, payload: object) => t.as(admin, { method: 'POST', url, payload });
  expect((await post('/api/tax/settings', { tin: 'P051234567X', branch_id: '00', device_serial: 'BETDESK-B', vat_registered: true, base_url: oscu.baseUrl })).statusCode).toBe(200);
  expect((await post('/api/tax/initialise', {})).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
  await oscu.close();
});

const post = (url: string, payload: object) => t.as(admin, { method: 'POST', url, payload });
const setBonusInvoicing = async (value: boolean) =>
  expect((await post('/api/settings/update', { key: 'tax_invoice_bonus_payments', value })).statusCode).toBe(200);

/** A client who owes a KES 150 bonus on a winning bet. */
async function clientOwingBonus() {
  phoneSeq += 1;
  const phone = `2547332${String(phoneSeq).padStart(5, '0')}`;
  const clientId = await ref.person('client', `Bonus Client ${phoneSeq}`, phone);
  const [bet] = await t.deps.db
    .insert(bets)
    .values({ clientId, stakeCents: 50_000, description: 'Gor Mahia win', profitCents: 50_000, status: 'closed' })
    .returning({ id: bets.id });
  await t.deps.db.insert(bonuses).values({ betId: bet!.id, clientId, amountCents: 15_000, ratePercent: 30 });
  return { clientId, phone };
}

const bonusInvoices = (clientId: number) =>
  t.deps.db
    .select({ invoice: taxInvoices, bonusPayment: bonusPayments })
    .from(taxInvoices)
    .innerJoin(bonusPayments, eq(bonusPayments.id, taxInvoices.bonusPaymentId))
    .where(and(eq(bonusPayments.clientId, clientId), isNotNull(taxInvoices.bonusPaymentId)))
    .orderBy(taxInvoices.id);

const today = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);

describe('bonus payments and tax invoices', () => {
  it('does not invoice a bonus payment by default', async () => {
    const { clientId, phone } = await clientOwingBonus();
    await confirm(t, c2b({ BillRefNumber: String(clientId), MSISDN: phone, TransAmount: '150.00' }));
    const [paid] = await t.deps.db.select().from(bonusPayments).where(eq(bonusPayments.clientId, clientId));
    expect(paid).toMatchObject({ amountCents: 15_000, source: 'mpesa' });
    expect(await bonusInvoices(clientId)).toEqual([]);
  });

  it('with the setting on, invoices a bonus paid by M-Pesa and one recorded by an admin, and KRA receives each once', async () => {
    await setBonusInvoicing(true);
    const { clientId, phone } = await clientOwingBonus();
    const body = c2b({ BillRefNumber: String(clientId), MSISDN: phone, TransAmount: '100.00' });
    await confirm(t, body);
    await confirm(t, body); // a repeated webhook changes nothing
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    const recorded = await post('/api/bonuses/pay', { client_id: clientId, amount: 50, description: 'Cash at the office' });
    expect(recorded.statusCode, recorded.body).toBe(200);

    const queued = await bonusInvoices(clientId);
    expect(queued.map((r) => r.invoice)).toEqual([
      expect.objectContaining({ kind: 'invoice', status: 'queued', paymentId: payment.id, itemName: 'Bonus on winnings', amountCents: 10_000, taxType: 'B', taxCents: 1379, subscriptionId: null }),
      expect.objectContaining({ kind: 'invoice', status: 'queued', paymentId: null, amountCents: 5_000, taxCents: 690 }),
    ]);
    const before = oscu.salesRequests;
    await transmitDueInvoices(t.deps);
    expect(oscu.salesRequests - before).toBe(2);
    const sent = await bonusInvoices(clientId);
    expect(sent.map((r) => r.invoice.status)).toEqual(['sent', 'sent']);
    const [byMpesa, byCash] = sent.map((r) => oscu.sales.get(`P051234567X/00/${r.invoice.number}`));
    expect(byMpesa).toMatchObject({ rcptTyCd: 'S', totAmt: 100, totTaxAmt: 13.79, pmtTyCd: '06' });
    expect(byCash).toMatchObject({ rcptTyCd: 'S', totAmt: 50, totTaxAmt: 6.9, pmtTyCd: '07' });
    // Income that is not a subscription is no difference in the daily check.
    expect((await t.as(admin, { method: 'GET', url: `/api/tax/check?date=${today()}` })).json().rows).toEqual([]);
    await setBonusInvoicing(false);
  });

  it('issues a credit note when the claim that paid a bonus is undone, and the daily check agrees', async () => {
    await setBonusInvoicing(true);
    const { clientId } = await clientOwingBonus();
    const body = c2b({ BillRefNumber: 'WHO', MSISDN: '2547 ***** 556', TransAmount: '150.00' });
    await confirm(t, body);
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    expect((await post('/api/mpesa-transactions/claim', { transaction_id: payment.id, client_id: clientId })).statusCode).toBe(200);
    const [invoice] = await bonusInvoices(clientId);
    expect(invoice!.invoice).toMatchObject({ paymentId: payment.id, amountCents: 15_000 });

    expect((await post('/api/mpesa-transactions/unclaim', { transaction_id: payment.id })).statusCode).toBe(200);
    const credits = await t.deps.db
      .select()
      .from(taxInvoices)
      .where(and(eq(taxInvoices.kind, 'credit_note'), eq(taxInvoices.originalId, invoice!.invoice.id)));
    expect(credits).toEqual([expect.objectContaining({ cause: 'reversal', amountCents: 15_000, bonusPaymentId: invoice!.invoice.bonusPaymentId })]);
    expect((await t.as(admin, { method: 'GET', url: `/api/tax/check?date=${today()}` })).json().rows).toEqual([]);
    await setBonusInvoicing(false);
  });
});
