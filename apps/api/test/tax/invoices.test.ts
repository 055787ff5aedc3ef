import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { subscriptions, taxInvoices } from '../../src/db/schema/index.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import { inclusiveTaxCents, queueCreditNote, transmitDueInvoices } from '../../src/modules/tax/service.ts';
import { rows } from '../../src/db/rows.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { c2b, confirm, paymentByReceipt, seedPeople } from '../mpesa/fixtures.ts';

let t: TestApp;
let fake: FakeOscu;
let admin: string;
let staff: string;
let ref: Awaited<ReturnType<typeof seedPeople>>;
let phoneSeq = 0;

beforeAll(async () => {
  fake = await startFakeOscu();
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  ref = await seedPeople(t);
  await t.addUser({ email: 'tax-admin@example.com', categoryId: ADMIN });
  await t.addUser({ email: 'tax-staff@example.com' });
  admin = await t.tokenFor('tax-admin@example.com');
  staff = await t.tokenFor('tax-staff@example.com');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const api = (method: 'GET' | 'POST', url: string, payload?: object) => t.as(admin, { method, url, ...(payload ? { payload } : {}) });

/** A paybill sale: a new subscriber pays the D2 SMS weekly package (KES 100) from their phone. */
async function paybillSale(over: Record<string, unknown> = {}) {
  phoneSeq += 1;
  const phone = `2547331${String(phoneSeq).padStart(5, '0')}`;
  await ref.person('subscriber', `Payer ${phoneSeq}`, phone);
  const body = c2b({ BillRefNumber: 'D2', MSISDN: phone, TransAmount: '100.00', ...over });
  expect((await confirm(t, body)).statusCode).toBe(200);
  const payment = (await paymentByReceipt(t, body.TransID as string))!;
  return { body, payment };
}

const invoicesOf = (paymentId: number) =>
  t.deps.db.select().from(taxInvoices).where(eq(taxInvoices.paymentId, paymentId)).orderBy(taxInvoices.id);

/** Makes every queued invoice due now (the backoff has passed). */
const backoffPassed = () => t.deps.db.execute(sql`update tax_invoices set next_attempt_at = now() where status = 'queued'`);

describe('invoicing off', () => {
  it('records a sale as awaiting invoice until the device is initialised, then queues it', async () => {
    const { payment } = await paybillSale();
    const [waiting] = await invoicesOf(payment.id);
    expect(waiting).toMatchObject({ kind: 'invoice', status: 'awaiting', number: 1, amountCents: 10_000, taxType: 'D', taxCents: 0 });
    expect((await transmitDueInvoices(t.deps)).sent).toBe(0);
    expect((await api('GET', '/api/tax/status')).json()).toMatchObject({ invoicing_on: false, alert: expect.stringMatching(/invoicing is off/) });

    const saved = await api('POST', '/api/tax/settings', {
      tin: 'P051234567X',
      branch_id: '00',
      device_serial: 'BETDESK-01',
      vat_registered: true,
      base_url: fake.baseUrl,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings).toMatchObject({ invoicing_on: false, initialised: false });
    const init = await api('POST', '/api/tax/initialise');
    expect(init.statusCode).toBe(200);
    expect(init.json()).toMatchObject({ queued: 1, settings: { invoicing_on: true } });
    expect((await invoicesOf(payment.id))[0]!.status).toBe('queued');
    expect(await transmitDueInvoices(t.deps)).toMatchObject({ sent: 1 });
    expect((await api('GET', '/api/tax/status')).json()).toEqual({ invoicing_on: true, late_invoices: 0, alert: null, transmission_alert: null });
  });

  it('refuses a bad PIN naming the field, and staff on every tax route', async () => {
    const bad = await api('POST', '/api/tax/settings', { tin: 'nope', device_serial: 'x', vat_registered: true });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toContain('tin');
    for (const url of ['/api/tax/settings', '/api/tax/invoices', '/api/tax/summary?month=2026-01', '/api/tax/check?date=2026-01-01']) {
      expect((await t.as(staff, { method: 'GET', url })).statusCode).toBe(403);
    }
  });

  it('keeps the communication key sealed at rest', async () => {
    const [row] = await rows<{ cmc_key_sealed: string }>(t.deps.db, sql`select cmc_key_sealed from tax_device`);
    expect([...fake.cmcKeys].some((k) => row!.cmc_key_sealed.includes(k))).toBe(false);
    expect(row!.cmc_key_sealed.split('.')).toHaveLength(3);
  });
});

describe('an invoice for every sale', () => {
  it('queues one invoice for a repeated webhook, and KRA receives it once', async () => {
    phoneSeq += 1;
    const phone = `2547331${String(phoneSeq).padStart(5, '0')}`;
    await ref.person('subscriber', 'Repeat payer', phone);
    const body = c2b({ BillRefNumber: 'D2', MSISDN: phone, TransAmount: '100.00' });
    await Promise.all(Array.from({ length: 20 }, () => confirm(t, body)));
    await confirm(t, body);
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    const invoices = await invoicesOf(payment.id);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'queued', taxType: 'B', amountCents: 10_000, taxCents: 1379 });
    const before = fake.salesRequests;
    await Promise.all([transmitDueInvoices(t.deps), transmitDueInvoices(t.deps)]);
    expect(fake.salesRequests - before).toBe(1);
    const [sent] = await invoicesOf(payment.id);
    expect(sent).toMatchObject({ status: 'sent' });
    expect(sent!.kraSignature).toBeTruthy();
    expect(fake.sales.get(`P051234567X/00/${sent!.number}`)).toMatchObject({ rcptTyCd: 'S', salesTyCd: 'N', totAmt: 100, totTaxAmt: 13.79 });
    const listed = (await api('GET', `/api/mpesa-transactions?search=${body.TransID as string}`)).json();
    expect(listed.transactions[0].invoice).toEqual({
      id: sent!.id,
      number: sent!.number,
      status: 'sent',
      kra_receipt_number: sent!.kraReceiptNumber,
      qr: `https://etims-sbx.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=P051234567X00${sent!.kraSignature}`,
    });
  });

  it('invoices a staff claim of an unclaimed payment when it is claimed, not before', async () => {
    const body = c2b({ BillRefNumber: 'NOBODY', MSISDN: '254700999888', TransAmount: '1000.00' });
    await confirm(t, body);
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    expect(payment.status).toBe('unclaimed');
    expect(await invoicesOf(payment.id)).toHaveLength(0);
    const clientId = await ref.person('client', 'Claimed client', '254700999888');
    const claimed = await api('POST', '/api/mpesa-transactions/claim', { transaction_id: payment.id, client_id: clientId });
    expect(claimed.statusCode).toBe(200);
    const [invoice] = await invoicesOf(payment.id);
    expect(invoice).toMatchObject({ kind: 'invoice', amountCents: 100_000, itemName: 'Weekly', status: 'queued' });
  });

  it('numbers concurrent sales without gaps or repeats', async () => {
    await Promise.all(Array.from({ length: 12 }, () => paybillSale()));
    const numbers = (await t.deps.db.select({ n: taxInvoices.number }).from(taxInvoices).orderBy(taxInvoices.number)).map((r) => r.n);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
  });

  it('computes VAT-inclusive tax to the cent, for prices with and without cents', () => {
    expect(inclusiveTaxCents(10_000, 'B')).toBe(1379); // 100.00 × 16/116 = 13.793
    expect(inclusiveTaxCents(2_050, 'B')).toBe(283); // 20.50 → 2.8276
    expect(inclusiveTaxCents(99_999, 'B')).toBe(13_793); // 999.99 → 137.9297
    expect(inclusiveTaxCents(5_800, 'B')).toBe(800); // exactly 8.00
    expect(inclusiveTaxCents(10_800, 'E')).toBe(800);
    expect(inclusiveTaxCents(10_000, 'D')).toBe(0);
  });
});

describe('KRA down, KRA says no', () => {
  it('keeps an invoice queued while KRA is unreachable and sends it once KRA is back', async () => {
    // Earlier tests' invoices still waiting for a retry are sent first, so that the counts below are this sale's.
    await backoffPassed();
    await transmitDueInvoices(t.deps);
    const { payment } = await paybillSale();
    fake.down = true;
    // The counts are at least this sale's: an earlier file's invoice leased by a background run can
    // come due beside it on a busy machine. What is asserted is this invoice's own fate.
    expect(await transmitDueInvoices(t.deps)).toMatchObject({ sent: 0, retry: expect.any(Number) });
    const [waiting] = await invoicesOf(payment.id);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
    expect(waiting!.reason).toMatch(/unreachable/);
    expect(waiting!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    fake.down = false;
    await transmitDueInvoices(t.deps);
    expect((await invoicesOf(payment.id))[0]).toMatchObject({ status: 'queued', attempts: 1 });
    await backoffPassed();
    expect((await transmitDueInvoices(t.deps)).sent).toBeGreaterThanOrEqual(1);
    const [sent] = await invoicesOf(payment.id);
    expect(sent!.status).toBe('sent');
    expect([...fake.sales.keys()].filter((k) => k === `P051234567X/00/${sent!.number}`)).toHaveLength(1);
  });

  it('records as sent an invoice whose answer was lost mid-send, without KRA holding it twice', async () => {
    const { payment } = await paybillSale();
    fake.dropAfterStoring = 1;
    expect((await transmitDueInvoices(t.deps)).retry).toBe(1);
    await backoffPassed();
    expect((await transmitDueInvoices(t.deps)).sent).toBe(1);
    const [invoice] = await invoicesOf(payment.id);
    expect(invoice).toMatchObject({ status: 'sent' });
    expect(invoice!.reason).toMatch(/already held/);
    expect([...fake.sales.keys()].filter((k) => k === `P051234567X/00/${invoice!.number}`)).toHaveLength(1);
  });

  it('keeps the reason of a rejected invoice, and an admin resends it', async () => {
    const { payment } = await paybillSale();
    fake.nextSaleAnswers.push({ resultCd: '910', resultMsg: 'Request parameter error' });
    expect((await transmitDueInvoices(t.deps)).rejected).toBe(1);
    const [rejected] = await invoicesOf(payment.id);
    expect(rejected).toMatchObject({ status: 'rejected', reason: '910 Request parameter error' });
    const shown = await api('GET', `/api/tax/invoices?status=rejected`);
    expect(shown.json().invoices.map((i: { id: number }) => i.id)).toContain(rejected!.id);
    const resent = await api('POST', `/api/tax/invoices/${rejected!.id}/resend`);
    expect(resent.statusCode).toBe(200);
    expect((await api('POST', `/api/tax/invoices/${rejected!.id}/resend`)).statusCode).toBe(409);
    expect((await transmitDueInvoices(t.deps)).sent).toBe(1);
    const detail = (await api('GET', `/api/tax/invoices/${rejected!.id}`)).json();
    expect(detail).toMatchObject({ status: 'sent', reason: null, kra: { signature: expect.any(String) } });
    expect(detail.qr).toBe(`https://etims-sbx.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=P051234567X00${detail.kra.signature}`);
  });
});

describe('credit notes', () => {
  it('issues a credit note against the original invoice when a claim is reversed', async () => {
    const body = c2b({ BillRefNumber: 'NOBODY', MSISDN: '254700999777', TransAmount: '1000.00' });
    await confirm(t, body);
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    const clientId = await ref.person('client', 'Wrong client', '254700999777');
    await api('POST', '/api/mpesa-transactions/claim', { transaction_id: payment.id, client_id: clientId });
    expect((await api('POST', '/api/mpesa-transactions/unclaim', { transaction_id: payment.id })).statusCode).toBe(200);
    const [invoice, credit] = await invoicesOf(payment.id);
    expect(credit).toMatchObject({ kind: 'credit_note', originalId: invoice!.id, cause: 'reversal', amountCents: 100_000, taxCents: 13_793 });
    await transmitDueInvoices(t.deps);
    await backoffPassed();
    await transmitDueInvoices(t.deps);
    expect(fake.sales.get(`P051234567X/00/${credit!.number}`)).toMatchObject({ rcptTyCd: 'R', orgInvcNo: invoice!.number, totAmt: 1000 });
  });

  it('credits a refund against the payment’s invoice for the amount returned, never more than was invoiced', async () => {
    const { payment } = await paybillSale();
    const ids = await t.deps.db.transaction((tx) => queueCreditNote(tx, { paymentId: payment.id, amountCents: 4_000, reason: 'Refund asked by the punter' }));
    expect(ids).toHaveLength(1);
    const more = await t.deps.db.transaction((tx) => queueCreditNote(tx, { paymentId: payment.id, amountCents: 9_000, reason: 'Refund of the rest' }));
    const credits = (await invoicesOf(payment.id)).filter((i) => i.kind === 'credit_note');
    expect(more).toHaveLength(1);
    expect(credits.map((c) => c.amountCents)).toEqual([4_000, 6_000]);
  });
});

describe('the books', () => {
  it('finds a sale with no invoice in the daily check', async () => {
    const today = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const clean = (await api('GET', `/api/tax/check?date=${today}`)).json();
    expect(clean.rows).toEqual([]);
    expect(clean.difference).toEqual({ count: 0, amount: 0 });
    const subscriberId = await ref.person('subscriber', 'Uninvoiced', '254733999001');
    const [sub] = await t.deps.db
      .insert(subscriptions)
      .values({ subscriberId, packageId: ref.d2Sms.id, betCategoryId: ref.d2.id, medium: 'sms', durationDays: 7, amountCents: 10_000, startsAt: new Date(), expiresAt: new Date(Date.now() + 7 * 86_400_000), source: 'mpesa' })
      .returning();
    const found = (await api('GET', `/api/tax/check?date=${today}`)).json();
    expect(found.difference).toEqual({ count: 1, amount: 100 });
    expect(found.rows).toEqual([expect.objectContaining({ problem: 'sale_without_invoice', subscription_id: sub!.id, amount: 100 })]);
  });

  it('sums the month per tax type to exactly its invoices and credit notes', async () => {
    const month = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 7);
    const summary = (await api('GET', `/api/tax/summary?month=${month}`)).json();
    const [sums] = await rows<{ sales: string; tax: string; credits: string }>(
      t.deps.db,
      sql`select
        sum(amount_cents) filter (where kind = 'invoice' and tax_type = 'B') as sales,
        sum(tax_cents) filter (where kind = 'invoice' and tax_type = 'B') as tax,
        sum(amount_cents) filter (where kind = 'credit_note' and tax_type = 'B') as credits from tax_invoices`,
    );
    const b = summary.rows.find((r: { tax_type: string }) => r.tax_type === 'B');
    expect(b.sales * 100).toBeCloseTo(Number(sums!.sales), 6);
    expect(b.tax * 100).toBeCloseTo(Number(sums!.tax), 6);
    expect(b.credit_notes * 100).toBeCloseTo(Number(sums!.credits), 6);
    expect(Math.round(b.net * 100)).toBe(Number(sums!.sales) - Number(sums!.credits));
    const d = summary.rows.find((r: { tax_type: string }) => r.tax_type === 'D');
    expect(d).toMatchObject({ sales: 100, tax: 0 });
  });

  it('lists invoices with totals equal to the sum of their rows, and exports them as CSV', async () => {
    const list = (await api('GET', '/api/tax/invoices?kind=invoice&perPage=100')).json();
    const sum = list.invoices.reduce((s: number, i: { amount: number }) => s + Math.round(i.amount * 100), 0);
    expect(list.total_records).toBe(list.invoices.length);
    expect(Math.round(list.total_amount * 100)).toBe(sum);
    expect(list.invoices[0].buyer_phone).toMatch(/\*\*\*/);
    const csv = await api('GET', '/api/tax/invoices/export?kind=credit_note');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toContain('Original number');
    expect(csv.body.trim().split('\r\n')).toHaveLength(1 + (await t.deps.db.select().from(taxInvoices).where(and(eq(taxInvoices.kind, 'credit_note')))).length);
  });

  it('exports as an accountant reads it: ISO dates, the taxable value per line, credit notes negative so each column sums to the net', async () => {
    const all = (await api('GET', '/api/tax/invoices?perPage=100')).json();
    const csv = await api('GET', '/api/tax/invoices/export');
    const [head, ...lines] = csv.body.trim().split('\r\n');
    const columns = head!.split(',');
    expect(columns.slice(0, 12)).toEqual(['Kind', 'Number', 'Original number', 'Date', 'Time', 'M-Pesa receipt', 'Buyer phone', 'Item', 'Taxable value', 'Tax', 'Amount', 'Tax type']);
    const cells = lines.map((l) => l.split(','));
    const col = (name: string) => cells.map((c) => c[columns.indexOf(name)]!);
    expect(col('Date').every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))).toBe(true);
    expect(col('Time').every((d) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+03:00$/.test(d))).toBe(true);
    const cents = (name: string) => col(name).reduce((n, v) => n + Math.round(Number(v) * 100), 0);
    expect(cents('Amount')).toBe(Math.round(all.total_amount * 100));
    expect(cents('Tax')).toBe(Math.round(all.total_tax * 100));
    expect(cents('Taxable value')).toBe(Math.round(all.total_amount * 100) - Math.round(all.total_tax * 100));
    const notes = cells.filter((c) => c[0] === 'Credit note');
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((c) => Number(c[columns.indexOf('Amount')]) < 0)).toBe(true);
  });
});
