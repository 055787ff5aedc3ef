import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { eq, sql } from 'drizzle-orm';
import { taxInvoices } from '../../src/db/schema/index.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import { queueCreditNote, transmitDueInvoices } from '../../src/modules/tax/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { c2b, confirm, paymentByReceipt, seedPeople } from '../mpesa/fixtures.ts';

/**
 * Decision 068: November's VAT return, made by hand: a non-VAT sale (D) before the business
 * registered for VAT, three B sales (one a Bet4Me client's, one paid on 30 November and confirmed in
 * December), a credit note of half the client's sale, and a December sale that is not November's.
 */
let t: TestApp;
let fake: FakeOscu;
let admin: string;
let staff: string;
let ref: Awaited<ReturnType<typeof seedPeople>>;
let seq = 0;
const TIN = 'P051234567X';
const payments: Record<string, { id: number; transId: string }> = {};

const api = (method: 'GET' | 'POST', url: string, payload?: object) => t.as(admin, { method, url, ...(payload ? { payload } : {}) });
const device = (vat: boolean) => api('POST', '/api/tax/settings', { tin: TIN, branch_id: '00', device_serial: 'BETDESK-VAT', vat_registered: vat, base_url: fake.baseUrl });

/** A paybill payment made at `transTime` (M-Pesa's Nairobi time, YYYYMMDDhhmmss). */
async function sale(name: string, transTime: string, over: Record<string, unknown> = {}) {
  seq += 1;
  const phone = `2547334${String(seq).padStart(5, '0')}`;
  const body = c2b({ BillRefNumber: 'D2', MSISDN: phone, TransAmount: '100.00', TransTime: transTime, ...over });
  if (body.BillRefNumber === 'D2') await ref.person('subscriber', `Buyer ${seq}`, phone);
  expect((await confirm(t, body)).statusCode).toBe(200);
  const payment = (await paymentByReceipt(t, body.TransID as string))!;
  payments[name] = { id: payment.id, transId: body.TransID as string };
  return payment;
}
const invoiceOf = async (paymentId: number, kind: 'invoice' | 'credit_note' = 'invoice') =>
  (await t.deps.db.select().from(taxInvoices).where(eq(taxInvoices.paymentId, paymentId))).find((i) => i.kind === kind)!;
const sendAll = async () => {
  for (let i = 0; i < 3; i++) {
    await t.deps.db.execute(sql`update tax_invoices set next_attempt_at = now() where status = 'queued'`);
    await transmitDueInvoices(t.deps);
  }
};

beforeAll(async () => {
  fake = await startFakeOscu();
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  ref = await seedPeople(t);
  await t.addUser({ email: 'vat-admin@example.com', categoryId: ADMIN });
  await t.addUser({ email: 'vat-staff@example.com' });
  admin = await t.tokenFor('vat-admin@example.com');
  staff = await t.tokenFor('vat-staff@example.com');
  expect((await device(false)).statusCode).toBe(200);
  expect((await api('POST', '/api/tax/initialise')).statusCode).toBe(200);

  await sale('nonVat', '20261110100000');
  expect((await device(true)).statusCode).toBe(200);
  await sale('tips', '20261112090000');
  const clientId = await ref.person('client', 'VAT Client', '254733499999');
  await sale('client', '20261115120000', { BillRefNumber: String(clientId), MSISDN: '254733499999', TransAmount: '1000.00' });
  // Paid ten minutes before midnight on 30 November, confirmed (and invoiced) in December.
  await sale('late', '20261130235000');
  await sale('december', '20261201001000');
  await sendAll();
  await t.deps.db.transaction((tx) => queueCreditNote(tx, { paymentId: payments.client!.id, amountCents: 50_000, reason: 'Half refunded' }));
  const note = await invoiceOf(payments.client!.id, 'credit_note');
  // Issued on 20 November (a hand-made month: the note is dated as if written then).
  await t.deps.db.update(taxInvoices).set({ createdAt: new Date('2026-11-20T07:00:00Z') }).where(eq(taxInvoices.id, note.id));
  await sendAll();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('the VAT return', () => {
  it('sums November per rate to the cent: B net of the credit note, D, the late confirmation in, December out', async () => {
    const res = await api('GET', '/api/tax/returns/vat?month=2026-11&perPage=100');
    expect(res.statusCode, res.body).toBe(200);
    const ret = res.json();
    expect(ret.summary).toEqual([
      // 100 + 1,000 + 100 − 500 = 700.00; VAT 13.79 + 137.93 + 13.79 − 68.97 = 96.54.
      { rate: 'B', count: 4, taxable: 603.46, vat: 96.54, total: 700 },
      { rate: 'D', count: 1, taxable: 100, vat: 0, total: 100 },
    ]);
    expect(ret.total_lines).toBe(5);
    // The summary is the schedule summed, to the cent.
    for (const s of ret.summary) {
      const of = ret.lines.filter((l: { rate: string }) => l.rate === s.rate);
      const cents = (k: 'taxable' | 'vat') => of.reduce((n: number, l: Record<string, number>) => n + Math.round(l[k]! * 100), 0);
      expect([of.length, cents('taxable'), cents('vat')]).toEqual([s.count, Math.round(s.taxable * 100), Math.round(s.vat * 100)]);
    }
    const late = await invoiceOf(payments.late!.id);
    const client = await invoiceOf(payments.client!.id);
    const note = await invoiceOf(payments.client!.id, 'credit_note');
    expect(ret.lines.map((l: { invoice_number: string }) => l.invoice_number)).toEqual([
      `INV-00-${(await invoiceOf(payments.tips!.id)).number}`,
      `INV-00-${client.number}`,
      `CN-00-${note.number}`,
      `INV-00-${late.number}`,
      `INV-00-${(await invoiceOf(payments.nonVat!.id)).number}`,
    ]);
    const lateLine = ret.lines.find((l: { invoice_id: number }) => l.invoice_id === late.id);
    // Its tax point is the payment (30 November); its invoice date is the day it was written.
    expect(lateLine).toMatchObject({ rate: 'B', tax_point: '2026-11-30', taxable: 86.21, vat: 13.79, kind: 'invoice', status: 'sent' });
    expect(lateLine.invoice_date > '2026-11-30').toBe(true);
    expect(ret.lines.find((l: { invoice_id: number }) => l.invoice_id === note.id)).toMatchObject({
      invoice_date: '2026-11-20',
      taxable: -431.03,
      vat: -68.97,
      cu_invoice_number: expect.stringMatching(new RegExp(`/${note.kraReceiptNumber}$`)),
      relevant_invoice_number: `${client.kraSdcId}/${client.kraReceiptNumber}`,
      relevant_invoice_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    // December's sale is December's.
    const dec = (await api('GET', '/api/tax/returns/vat?month=2026-12')).json();
    expect(dec.summary).toEqual([{ rate: 'B', count: 1, taxable: 86.21, vat: 13.79, total: 100 }]);
  });

  it('downloads the schedule as CSV in KRA’s column order, credit notes negative', async () => {
    const res = await api('GET', '/api/tax/returns/vat?month=2026-11&format=csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/vat-return-2026-11-\d{4}-\d{2}-\d{2}\.csv/);
    const [head, ...lines] = res.body.trim().split('\r\n');
    expect(head).toBe(
      'PIN of Purchaser,Name of Purchaser,ETR Serial Number,Invoice Date,Invoice Number,Description of Goods / Services,Taxable Value (Ksh),Amount of VAT (Ksh),Relevant Invoice Number,Relevant Invoice Date,Tax type,KRA status',
    );
    expect(lines).toHaveLength(5);
    const note = await invoiceOf(payments.client!.id, 'credit_note');
    const noteLine = lines.find((l) => l.includes(`CN-00-${note.number}`))!.split(',');
    expect(noteLine.slice(3, 8)).toEqual(['20/11/2026', `CN-00-${note.number}`, 'Weekly', '-431.03', '-68.97']);
    const taxable = lines.filter((l) => l.endsWith(',B,sent')).reduce((n, l) => n + Math.round(Number(l.split(',')[6]) * 100), 0);
    expect(taxable).toBe(60_346);
  });

  it('downloads the same schedule as xlsx: a summary sheet and one sheet per rate, read back with exceljs', async () => {
    const res = await api('GET', '/api/tax/returns/vat?month=2026-11&format=xlsx');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Summary', 'Rate B', 'Rate D']);
    const values = (name: string) => {
      const out: unknown[][] = [];
      book.getWorksheet(name)!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
      return out;
    };
    expect(values('Summary')).toEqual([
      ['Tax type', 'Documents', 'Taxable Value (Ksh)', 'Amount of VAT (Ksh)', 'Total (Ksh)'],
      ['B', 4, 603.46, 96.54, 700],
      ['D', 1, 100, 0, 100],
    ]);
    const b = values('Rate B');
    expect(b[0]).toEqual(expect.arrayContaining(['PIN of Purchaser', 'ETR Serial Number', 'Relevant Invoice Date']));
    expect(b).toHaveLength(5);
    const cents = b.slice(1).reduce((n, r) => n + Math.round((r[6] as number) * 100), 0);
    expect(cents).toBe(60_346);
  });

  it('refuses a bad month naming the field, and staff', async () => {
    const bad = await api('GET', '/api/tax/returns/vat?month=2026-13');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toContain('month');
    expect((await t.as(staff, { method: 'GET', url: '/api/tax/returns/vat?month=2026-11' })).statusCode).toBe(403);
    expect((await t.as(staff, { method: 'GET', url: '/api/tax/transmissions' })).statusCode).toBe(403);
  });
});

describe('transmissions', () => {
  it('lists a rejected document with KRA’s reason, retries it once however often it is asked, and the daily check counts it as not invoiced', async () => {
    fake.nextSaleAnswers.push({ resultCd: '910', resultMsg: 'Request parameter error' });
    const payment = await sale('rejected', '20261202090000');
    await transmitDueInvoices(t.deps);
    const invoice = await invoiceOf(payment.id);
    expect(invoice.status).toBe('rejected');

    const listed = (await api('GET', '/api/tax/transmissions?status=rejected')).json();
    expect(listed.counts.rejected).toBe(1);
    expect(listed.transmissions).toEqual([
      expect.objectContaining({ invoice_id: invoice.id, status: 'rejected', reason: '910 Request parameter error', amount: 100, attempts: 1 }),
    ]);
    expect(listed.alert_hours).toBe(24);
    expect((await api('GET', '/api/tax/status')).json().transmission_alert).toMatch(/1 rejected by KRA/);

    const day = new Date(invoice.createdAt.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);
    const check = (await api('GET', `/api/tax/check?date=${day}`)).json();
    expect(check.rows).toEqual(expect.arrayContaining([expect.objectContaining({ problem: 'invoice_rejected', invoice_id: invoice.id })]));
    expect(check.difference.count).toBeGreaterThanOrEqual(1);

    const first = await api('POST', `/api/tax/invoices/${invoice.id}/retry`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().invoice.status).toBe('queued');
    const again = await api('POST', `/api/tax/invoices/${invoice.id}/retry`);
    expect(again.json().invoice.status).toBe('queued');
    expect((await api('GET', '/api/tax/transmissions?status=queued')).json().transmissions.filter((x: { invoice_id: number }) => x.invoice_id === invoice.id)).toHaveLength(1);
    const before = fake.salesRequests;
    await Promise.all([transmitDueInvoices(t.deps), transmitDueInvoices(t.deps)]);
    expect(fake.salesRequests - before).toBe(1);
    expect((await invoiceOf(payment.id)).status).toBe('sent');
    const held = await api('POST', `/api/tax/invoices/${invoice.id}/retry`);
    expect(held.json()).toMatchObject({ info: 'KRA already holds this document', invoice: { status: 'sent' } });
    expect((await api('GET', '/api/tax/transmissions')).json().total_records).toBe(0);
    expect((await t.as(staff, { method: 'POST', url: `/api/tax/invoices/${invoice.id}/retry` })).statusCode).toBe(403);
  });

  it('alerts when a document waits longer than tax_transmission_alert_hours', async () => {
    fake.nextSaleAnswers.length = 0;
    const payment = await sale('old', '20261202100000');
    const invoice = await invoiceOf(payment.id);
    await t.deps.db.update(taxInvoices).set({ createdAt: new Date(Date.now() - 30 * 3_600_000) }).where(eq(taxInvoices.id, invoice.id));
    const listed = (await api('GET', '/api/tax/transmissions')).json();
    expect(listed).toMatchObject({ older_than_alert: 1, counts: { queued: 1, retrying: 0, rejected: 0 } });
    expect(listed.transmissions[0].age_hours).toBeGreaterThanOrEqual(30);
    expect((await api('GET', '/api/tax/status')).json().transmission_alert).toMatch(/1 not accepted after 24 h/);
    expect((await api('POST', '/api/settings/update', { key: 'tax_transmission_alert_hours', value: 48 })).statusCode).toBe(200);
    expect((await api('GET', '/api/tax/transmissions')).json().older_than_alert).toBe(0);
  });
});
