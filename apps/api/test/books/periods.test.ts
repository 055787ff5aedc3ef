import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import ExcelJS from 'exceljs';
import { eq, inArray } from 'drizzle-orm';
import { auditLog, mpesaPayments, taxInvoices } from '../../src/db/schema/index.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import { moneyBridgeDays } from '../../src/modules/reports/service.ts';
import { queueCreditNote } from '../../src/modules/tax/service.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { stepUpClock } from '../step-up.ts';
import { c2b, confirm, paymentByReceipt, seedPeople } from '../mpesa/fixtures.ts';

/**
 * Decision 075: November closed by one admin and confirmed by another with their code; then a late
 * claim of a November payment and a refund of one, which land in December while November's return,
 * Tax screen and money bridge read what they read at the close, to the cent. Reopened by two admins.
 * Lives in: apps/api/test/books/periods.test.ts
 */
let t: TestApp;
let fake: FakeOscu;
let closer: { token: string; secret: string };
let confirmer: { token: string; secret: string };
let seq = 0;
const ids: Record<string, number> = {};
let clientId = 0;

let nextCode: ReturnType<typeof stepUpClock>['nextCode'];

const get = (url: string) => t.as(closer.token, { method: 'GET', url });
const post = (token: string, url: string, payload: object = {}) => t.as(token, { method: 'POST', url, payload });

async function pay(name: string, transTime: string, over: Record<string, unknown>, ref: Awaited<ReturnType<typeof seedPeople>>) {
  seq += 1;
  const phone = `2547336${String(seq).padStart(5, '0')}`;
  const body = c2b({ BillRefNumber: 'D2', MSISDN: phone, TransAmount: '100.00', TransTime: transTime, ...over });
  if (body.BillRefNumber === 'D2' && !over.MSISDN) await ref.person('subscriber', `Books ${seq}`, phone);
  expect((await confirm(t, body)).statusCode).toBe(200);
  ids[name] = (await paymentByReceipt(t, body.TransID as string))!.id;
}

/** What November reads on its three screens: the return's summary and lines, the Tax screen's month, the bridge. */
async function november() {
  const vat = (await get('/api/tax/returns/vat?month=2026-11&per_page=100')).json();
  const summary = (await get('/api/tax/summary?month=2026-11')).json();
  const bridge = (await get('/api/reports/money-bridge?month=2026-11')).json();
  // The days of the late claim's and the refund's payments, and the downloads (decision 079).
  const days = await Promise.all(['2026-11-10', '2026-11-14'].map(async (d) => (await get(`/api/reports/money-bridge?date=${d}`)).json()));
  const files = {
    vatCsv: (await get('/api/tax/returns/vat?month=2026-11&format=csv')).body,
    vatXlsx: await sheets((await get('/api/tax/returns/vat?month=2026-11&format=xlsx')).rawPayload),
    bridgeCsv: (await get('/api/reports/money-bridge/export?month=2026-11')).body,
    dayCsv: (await get('/api/reports/money-bridge/export?date=2026-11-14')).body,
  };
  return {
    summary: vat.summary,
    lines: vat.lines,
    tax: summary.rows,
    bridge: bridge.lines,
    difference: bridge.difference,
    closed: [vat.closed, summary.closed, bridge.closed],
    days: days.map((d) => d.lines),
    daysClosed: days.map((d) => d.closed),
    files,
  };
}

/** An xlsx download's sheets, read back with exceljs: name → rows of values. */
async function sheets(raw: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(raw as unknown as ArrayBuffer);
  return book.worksheets.map((w) => {
    const out: unknown[][] = [];
    w.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
    return [w.name, out];
  });
}

const lineOf = (lines: { line: string; amount: number; count: number }[], name: string) => lines.find((l) => l.line === name);

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const stepUp = stepUpClock();
  nextCode = stepUp.nextCode;
  fake = await startFakeOscu();
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  const ref = await seedPeople(t);
  closer = await stepUp.enrolAdmin(t, 'books-closer@example.com');
  confirmer = await stepUp.enrolAdmin(t, 'books-confirmer@example.com');
  expect(
    (await post(closer.token, '/api/tax/settings', { tin: 'P051234567X', branch_id: '00', device_serial: 'BETDESK-BOOKS', vat_registered: true, base_url: fake.baseUrl })).statusCode,
  ).toBe(200);
  expect((await post(closer.token, '/api/tax/initialise')).statusCode).toBe(200);
  clientId = await ref.person('client', 'Books Client', '254733699999');
  await pay('sale', '20261105100000', {}, ref);
  await pay('client', '20261110100000', { BillRefNumber: String(clientId), MSISDN: '254733699999', TransAmount: '1000.00' }, ref);
  await pay('unclaimed', '20261114100000', { BillRefNumber: 'NOBODY', MSISDN: '254700999886', TransAmount: '1000.00' }, ref);
  // November's sales invoiced in November.
  await t.deps.db.update(taxInvoices).set({ createdAt: new Date('2026-11-20T07:00:00Z') }).where(inArray(taxInvoices.paymentId, [ids.sale!, ids.client!]));
});
afterAll(async () => {
  vi.useRealTimers();
  await t.close();
  await fake.close();
});

describe('closing a month', () => {
  it('refuses a bad month, a month not yet ended and a missing reference, naming the field', async () => {
    const bad = await post(closer.token, '/api/books/periods/2026-13/close', { return_reference: 'KRA-1' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['month']);
    const future = await post(closer.token, '/api/books/periods/2099-01/close', { return_reference: 'KRA-1' });
    expect(future.statusCode).toBe(422);
    expect(future.json().errors.month[0]).toContain('has not ended');
    const blank = await post(closer.token, '/api/books/periods/2026-11/close', { return_reference: ' ' });
    expect(blank.statusCode).toBe(422);
    expect(Object.keys(blank.json().errors)).toEqual(['return_reference']);
  });

  let before: Awaited<ReturnType<typeof november>>;

  it('closes November when a second admin confirms with their code; the asker and a wrong code are refused', async () => {
    before = await november();
    expect(before.closed).toEqual([null, null, null]);
    const asked = await post(closer.token, '/api/books/periods/2026-11/close', { return_reference: 'VAT3-2026-11-0042' });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().period).toMatchObject({ month: '2026-11', state: 'closing', return_reference: 'VAT3-2026-11-0042' });
    // Asked again (a retried request): the same answer, nothing new.
    expect((await post(closer.token, '/api/books/periods/2026-11/close', { return_reference: 'VAT3-2026-11-0042' })).statusCode).toBe(200);
    expect((await post(closer.token, '/api/books/periods/2026-11/close', { return_reference: 'OTHER' })).statusCode).toBe(409);

    const own = await post(closer.token, '/api/books/periods/2026-11/confirm', { code: await nextCode(closer.secret) });
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe('own_ask');
    const wrong = await post(confirmer.token, '/api/books/periods/2026-11/confirm', { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(Object.keys(wrong.json().errors)).toEqual(['code']);
    expect((await get('/api/books/periods')).json().periods[0].state).toBe('closing');

    const confirmed = await post(confirmer.token, '/api/books/periods/2026-11/confirm', { code: await nextCode(confirmer.secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().period).toMatchObject({ state: 'closed', closed_by: expect.any(String), confirmed_by: expect.any(String) });
    const again = await post(closer.token, '/api/books/periods/2026-11/close', { return_reference: 'VAT3-2026-11-0042' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('books_closed');
  });

  it('keeps November to the cent after a late claim and a refund, which land in December', async () => {
    const claimed = await post(closer.token, '/api/mpesa-transactions/claim', { transaction_id: ids.unclaimed!, client_id: clientId });
    expect(claimed.statusCode, claimed.body).toBe(200);
    await t.deps.db.transaction(async (tx) => {
      await queueCreditNote(tx, { paymentId: ids.client!, amountCents: 25_050, reason: 'Part refunded', cause: 'refund' });
      await tx.update(mpesaPayments).set({ refundedCents: 25_050 }).where(eq(mpesaPayments.id, ids.client!));
    });
    const after = await november();
    expect(after.summary).toEqual(before.summary);
    expect(after.lines).toEqual(before.lines);
    expect(after.tax).toEqual(before.tax);
    expect(after.bridge).toEqual(before.bridge);
    expect(after.difference).toBe(0);
    // The days, the bridge's CSVs and the return's CSV and xlsx read what they read before (decision 079).
    expect(after.days).toEqual(before.days);
    expect(after.files).toEqual(before.files);
    expect(after.daysClosed).toEqual([after.closed[0], after.closed[0]]);
    // Read from its rows now, the day the late claim's payment came in would differ: the day view is the snapshot's.
    const live = (await moneyBridgeDays(t.deps.db, '2026-11'))['2026-11-14']!;
    expect(lineOf(live, 'unclaimed')!.amount).toBe(0);
    expect(lineOf(after.days[1]!, 'unclaimed')!.amount).toBe(1000);
    const csvCents = (csv: string, col: number) =>
      csv.trim().split('\n').slice(1).reduce((n, row) => n + Math.round(Number(row.split(',')[col]) * 100), 0);
    const keptCents = (key: 'taxable' | 'vat') => after.summary.reduce((n: number, s: Record<string, number>) => n + Math.round(s[key]! * 100), 0);
    expect(csvCents(after.files.vatCsv, 6)).toBe(keptCents('taxable'));
    expect(csvCents(after.files.vatCsv, 7)).toBe(keptCents('vat'));
    const cents = (rows: { total: number }[]) => rows.reduce((n, s) => n + Math.round(s.total * 100), 0);
    expect(cents(after.summary)).toBe(110_000);
    const closed = after.closed[0];
    expect(closed).toMatchObject({ month: '2026-11', return_reference: 'VAT3-2026-11-0042' });
    expect(after.closed).toEqual([closed, closed, closed]);

    // December has both: the late claim's invoice (its payment's month was closed) and the refund's credit note.
    const december = (await get('/api/tax/returns/vat?month=2026-12&per_page=100')).json();
    expect(december.closed).toBeNull();
    const kinds = december.lines.map((l: { kind: string; taxable: number; vat: number }) => [l.kind, Math.round((l.taxable + l.vat) * 100)]);
    expect(kinds).toEqual(expect.arrayContaining([['invoice', 100_000], ['credit_note', -25_050]]));
    expect(cents(december.summary)).toBe(100_000 - 25_050);

    // December's bridge lists both as late postings from November, outside its own M-Pesa money, and
    // with December's own payments (none here) they are December's VAT return to the cent (decision 079).
    const bridge = (await get('/api/reports/money-bridge?month=2026-12')).json();
    expect(bridge.closed).toBeNull();
    expect(bridge.difference).toBe(0);
    expect(lineOf(bridge.lines, 'received')).toMatchObject({ count: 0, amount: 0 });
    expect(lineOf(bridge.lines, 'late_postings')).toMatchObject({ count: 2, amount: 749.5 });
    expect(lineOf(bridge.lines, 'late_month')).toMatchObject({
      count: 2,
      amount: 749.5,
      closed_month: '2026-11',
      link: '/reports?report=money-bridge&group=day&from=2026-11-01&to=2026-11-30',
    });
    expect(lineOf(bridge.lines, 'late_invoices')).toMatchObject({ count: 1, amount: 1000, closed_month: '2026-11' });
    expect(lineOf(bridge.lines, 'late_credit_notes')).toMatchObject({ count: 1, amount: 250.5, closed_month: '2026-11' });
    const sales = lineOf(bridge.lines, 'sales_invoiced')!.amount;
    expect(Math.round((sales + lineOf(bridge.lines, 'late_postings')!.amount) * 100)).toBe(cents(december.summary));
    const csv = (await get('/api/reports/money-bridge/export?month=2026-12')).body;
    expect(csv).toContain('For November 2026 (closed),2,749.50');
    // The day both were written, too.
    const today = (await get(`/api/reports/money-bridge?date=${new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Nairobi' })}`)).json();
    expect(lineOf(today.lines, 'late_postings')).toMatchObject({ count: 2, amount: 749.5 });
  });

  it('reopens only when a second admin confirms, and audits every move', async () => {
    const asked = await post(closer.token, '/api/books/periods/2026-11/reopen');
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().period.state).toBe('reopening');
    expect((await get('/api/tax/summary?month=2026-11')).json().closed).not.toBeNull();
    const own = await post(closer.token, '/api/books/periods/2026-11/confirm', { code: await nextCode(closer.secret) });
    expect(own.statusCode).toBe(403);
    const confirmed = await post(confirmer.token, '/api/books/periods/2026-11/confirm', { code: await nextCode(confirmer.secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().period.state).toBe('open');
    expect((await get('/api/tax/returns/vat?month=2026-11')).json().closed).toBeNull();
    // What was posted in December for November stays in December.
    const december = (await get('/api/tax/returns/vat?month=2026-12')).json();
    expect(december.summary.reduce((n: number, s: { total: number }) => n + Math.round(s.total * 100), 0)).toBe(74_950);
    expect((await post(confirmer.token, '/api/books/periods/2026-11/reopen')).statusCode).toBe(409);

    const trail = await t.deps.db.select().from(auditLog).where(eq(auditLog.entity, 'books_period'));
    expect(trail.map((r) => r.action)).toEqual(['books.close', 'books.confirm-close', 'books.reopen', 'books.confirm-reopen']);
    expect(trail.every((r) => r.entityId === '2026-11')).toBe(true);
  });

  it('lets nobody but an admin read or move the books', async () => {
    await t.addUser({ email: 'books-staff@example.com' });
    const staff = await t.tokenFor('books-staff@example.com');
    expect((await t.as(staff, { method: 'GET', url: '/api/books/periods' })).statusCode).toBe(403);
    expect((await post(staff, '/api/books/periods/2026-10/close', { return_reference: 'X' })).statusCode).toBe(403);
  });
});
