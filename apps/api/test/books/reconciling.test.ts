import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { mpesaPayments, taxInvoices } from '../../src/db/schema/index.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import { queueCreditNote } from '../../src/modules/tax/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { c2b, confirm, paymentByReceipt, seedPeople } from '../mpesa/fixtures.ts';

/**
 * Decision 080: a refund written on 2 December of a November payment while November is still open.
 * Its credit note is in November's bridge (its payment's month) and December's VAT return (its tax
 * point, the moment it was written); each month's bridge carries a reconciling line for it, and its
 * "Sales in this period's VAT return" equals the return to the cent.
 * Lives in: apps/api/test/books/reconciling.test.ts
 */
let t: TestApp;
let fake: FakeOscu;
let admin: string;
let ref: Awaited<ReturnType<typeof seedPeople>>;
let seq = 0;
const ids: Record<string, number> = {};

const api = (url: string) => t.as(admin, { method: 'GET', url });

async function pay(name: string, transTime: string, over: Record<string, unknown> = {}) {
  seq += 1;
  const phone = `2547337${String(seq).padStart(5, '0')}`;
  const body = c2b({ BillRefNumber: 'D2', MSISDN: phone, TransAmount: '100.00', TransTime: transTime, ...over });
  if (body.BillRefNumber === 'D2' && !over.MSISDN) await ref.person('subscriber', `Reconcile ${seq}`, phone);
  expect((await confirm(t, body)).statusCode).toBe(200);
  ids[name] = (await paymentByReceipt(t, body.TransID as string))!.id;
}

const lineOf = (lines: { line: string }[], name: string) => lines.find((l) => l.line === name) as { count: number; amount: number; link: string } | undefined;
const returnCents = async (month: string) =>
  (await api(`/api/tax/returns/vat?month=${month}`)).json().summary.reduce((n: number, s: { total: number }) => n + Math.round(s.total * 100), 0);

beforeAll(async () => {
  fake = await startFakeOscu();
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  ref = await seedPeople(t);
  await t.addUser({ email: 'reconcile-admin@example.com', categoryId: ADMIN });
  admin = await t.tokenFor('reconcile-admin@example.com');
  const post = (url: string, payload: object) => t.as(admin, { method: 'POST', url, payload });
  expect((await post('/api/tax/settings', { tin: 'P051234567X', branch_id: '00', device_serial: 'BETDESK-RECON', vat_registered: true, base_url: fake.baseUrl })).statusCode).toBe(200);
  expect((await post('/api/tax/initialise', {})).statusCode).toBe(200);

  await pay('sale', '20261105100000');
  const clientId = await ref.person('client', 'Reconcile Client', '254733799999');
  await pay('client', '20261110100000', { BillRefNumber: String(clientId), MSISDN: '254733799999', TransAmount: '1000.00' });
  await pay('december', '20261201080000');
  await t.deps.db.update(taxInvoices).set({ createdAt: new Date('2026-11-20T07:00:00Z') }).where(inArray(taxInvoices.paymentId, [ids.sale!, ids.client!]));
  await t.deps.db.update(taxInvoices).set({ createdAt: new Date('2026-12-01T06:00:00Z') }).where(eq(taxInvoices.paymentId, ids.december!));
  // Refunded on 2 December, November not closed: its credit note's tax point is 2 December.
  await t.deps.db.transaction(async (tx) => {
    const note = await queueCreditNote(tx, { paymentId: ids.client!, amountCents: 25_050, reason: 'Part refunded', cause: 'refund' });
    expect(note).toBeTruthy();
    await tx.update(mpesaPayments).set({ refundedCents: 25_050 }).where(eq(mpesaPayments.id, ids.client!));
  });
  await t.deps.db
    .update(taxInvoices)
    .set({ createdAt: new Date('2026-12-02T09:00:00Z') })
    .where(eq(taxInvoices.kind, 'credit_note'));
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('the reconciling line between the money bridge and the VAT return', () => {
  it('November: the credit note written in December is added back, and the bridge reaches the return to the cent', async () => {
    const bridge = (await api('/api/reports/money-bridge?month=2026-11')).json();
    expect(bridge.difference).toBe(0);
    expect(lineOf(bridge.lines, 'sales_invoiced')).toMatchObject({ count: 3, amount: 849.5 });
    expect(lineOf(bridge.lines, 'credit_notes')).toMatchObject({ count: 1, amount: 250.5 });
    expect(lineOf(bridge.lines, 'late_postings')).toBeUndefined();
    expect(lineOf(bridge.lines, 'reconciling')).toMatchObject({ count: 1, amount: 250.5 });
    expect(lineOf(bridge.lines, 'reconcile_written_later')).toMatchObject({ count: 1, amount: 250.5, link: '/tax?from=2026-12-01&kind=credit_note' });
    expect(lineOf(bridge.lines, 'reconcile_open_earlier')).toBeUndefined();
    expect(lineOf(bridge.lines, 'vat_return_sales')).toMatchObject({ amount: 1100 });
    expect(await returnCents('2026-11')).toBe(110_000);
    const csv = (await api('/api/reports/money-bridge/export?month=2026-11')).body;
    expect(csv).toContain("Less: credit notes of this period's payments written after it (in a later period's VAT return),1,250.50,/tax?from=2026-12-01&kind=credit_note,");
    expect(csv).toContain("Sales in this period's VAT return (sales invoiced + late postings + reconciling),0,1100.00,");
  });

  it('December: the same credit note is in its return, not its payments; the reconciling line takes it off', async () => {
    const bridge = (await api('/api/reports/money-bridge?month=2026-12')).json();
    expect(bridge.difference).toBe(0);
    expect(lineOf(bridge.lines, 'sales_invoiced')).toMatchObject({ count: 1, amount: 100 });
    expect(lineOf(bridge.lines, 'reconcile_open_earlier')).toMatchObject({ count: 1, amount: -250.5, link: '/tax?from=2026-12-01&to=2026-12-31&kind=credit_note' });
    expect(lineOf(bridge.lines, 'reconcile_written_later')).toBeUndefined();
    expect(lineOf(bridge.lines, 'vat_return_sales')).toMatchObject({ amount: -150.5 });
    expect(await returnCents('2026-12')).toBe(-15_050);
    const csv = (await api('/api/reports/money-bridge/export?month=2026-12')).body;
    expect(csv).toContain('Plus: credit notes written in this period for payments of an earlier period not closed (refunds or corrections),1,-250.50,');
  });

  it('a day reconciles too: the day the credit note was written', async () => {
    const day = (await api('/api/reports/money-bridge?date=2026-12-02')).json();
    expect(lineOf(day.lines, 'reconcile_open_earlier')).toMatchObject({ count: 1, amount: -250.5 });
    expect(lineOf(day.lines, 'vat_return_sales')).toMatchObject({ amount: -250.5 });
  });
});
