import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { mpesaPayments, taxInvoices } from '../../src/db/schema/index.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import { queueCreditNote } from '../../src/modules/tax/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { c2b, confirm, paymentByReceipt, seedPeople } from '../mpesa/fixtures.ts';

/**
 * Decision 068: November's money bridge, made by hand. Paid in November: a D2 sale (KES 100), a
 * Bet4Me client's plan (KES 1,000, half of it refunded with its credit note), KES 55 that buys
 * nothing (credit), KES 70 nobody can be matched to (unclaimed), and KES 100 paid at 23:50 on
 * 30 November and confirmed in December (a late confirmation).
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
  const phone = `2547335${String(seq).padStart(5, '0')}`;
  const body = c2b({ BillRefNumber: 'D2', MSISDN: phone, TransAmount: '100.00', TransTime: transTime, ...over });
  if (body.BillRefNumber === 'D2' && !over.MSISDN) await ref.person('subscriber', `Bridge ${seq}`, phone);
  expect((await confirm(t, body)).statusCode).toBe(200);
  ids[name] = (await paymentByReceipt(t, body.TransID as string))!.id;
}

beforeAll(async () => {
  fake = await startFakeOscu();
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  ref = await seedPeople(t);
  await t.addUser({ email: 'bridge-admin@example.com', categoryId: ADMIN });
  admin = await t.tokenFor('bridge-admin@example.com');
  const post = (url: string, payload: object) => t.as(admin, { method: 'POST', url, payload });
  expect((await post('/api/tax/settings', { tin: 'P051234567X', branch_id: '00', device_serial: 'BETDESK-BRIDGE', vat_registered: true, base_url: fake.baseUrl })).statusCode).toBe(200);
  expect((await post('/api/tax/initialise', {})).statusCode).toBe(200);

  await pay('sale', '20261105100000');
  const clientId = await ref.person('client', 'Bridge Client', '254733599999');
  await pay('client', '20261110100000', { BillRefNumber: String(clientId), MSISDN: '254733599999', TransAmount: '1000.00' });
  await pay('credit', '20261112100000', { TransAmount: '55.00' });
  await pay('unclaimed', '20261114100000', { BillRefNumber: 'NOBODY', MSISDN: '254700999887', TransAmount: '70.00' });
  await pay('late', '20261130235000');
  await pay('december', '20261201080000');
  // Half the client's payment refunded (as the refunds module settles one: the payment's refunded amount and its credit note).
  await t.deps.db.transaction(async (tx) => {
    await queueCreditNote(tx, { paymentId: ids.client!, amountCents: 50_000, reason: 'Half refunded', cause: 'refund' });
    await tx.update(mpesaPayments).set({ refundedCents: 50_000 }).where(eq(mpesaPayments.id, ids.client!));
  });
  // The sales invoiced at the time they were paid; the late one stays invoiced in December.
  await t.deps.db
    .update(taxInvoices)
    .set({ createdAt: new Date('2026-11-20T07:00:00Z') })
    .where(inArray(taxInvoices.paymentId, [ids.sale!, ids.client!]));
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('the money bridge', () => {
  it('splits November’s M-Pesa money to the cent, and its sales equal the VAT return', async () => {
    const res = await api('/api/reports/money-bridge?month=2026-11');
    expect(res.statusCode, res.body).toBe(200);
    const bridge = res.json();
    const of = Object.fromEntries(bridge.lines.map((l: { line: string; count: number; amount: number }) => [l.line, [l.count, l.amount]]));
    expect(of).toEqual({
      received: [5, 1325],
      sales_invoiced: [4, 700],
      invoices: [3, 1200],
      credit_notes: [1, 500],
      credit_deposits: [1, 55],
      unclaimed: [1, 70],
      unsettled: [0, 0],
      refunded: [1, 500],
      invoiced_next_month: [1, 100],
    });
    expect(bridge.difference).toBe(0);
    expect(bridge.lines.find((l: { line: string }) => l.line === 'unclaimed').link).toBe('/mpesa/unclaimed?from=2026-11-01&to=2026-11-30');
    const vat = (await api('/api/tax/returns/vat?month=2026-11')).json();
    expect(vat.summary.reduce((n: number, s: { total: number }) => n + Math.round(s.total * 100), 0)).toBe(70_000);
  });

  it('answers a single day, and a CSV beside it', async () => {
    const day = (await api('/api/reports/money-bridge?date=2026-11-30')).json();
    expect(day.lines[0]).toMatchObject({ line: 'received', count: 1, amount: 100 });
    const csv = await api('/api/reports/money-bridge/export?month=2026-11');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('Line,Documents or payments,Amount,Rows,For closed month');
    expect(lines[1]).toBe('M-Pesa received,5,1325.00,/mpesa?from=2026-11-01&to=2026-11-30,');
  });

  it('refuses a month and a date together, or neither, naming the field', async () => {
    for (const url of ['/api/reports/money-bridge?month=2026-11&date=2026-11-01', '/api/reports/money-bridge']) {
      const res = await api(url);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toContain('month');
    }
  });
});
