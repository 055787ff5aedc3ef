import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PORTAL_COOKIE } from '@betdesk/contract';
import { smsMessages, taxInvoices } from '../../src/db/schema/index.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import { queueCreditNote, transmitDueInvoices } from '../../src/modules/tax/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';
import { c2b, confirm, paymentByReceipt, seedPeople } from '../mpesa/fixtures.ts';

/**
 * Decision 074: an invoice a buyer can hold. The PDF's text, extracted with pdf.js, carries the
 * seller's and buyer's PINs, the line, taxable value and VAT, KRA's receipt and signature, in
 * English or Kiswahili; staff read only within their scope, the portal only the punter's own.
 */
let t: TestApp;
let fake: FakeOscu;
let p: Awaited<ReturnType<typeof people>>;
const TIN = 'P051234567X';

async function textOf(pdf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, disableFontFace: true, verbosity: 0 }).promise;
  let text = '';
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    text += content.items.map((i) => ('str' in i ? i.str : '')).join(' ') + '\n';
  }
  return text.replace(/\s+/g, ' ');
}
const sendAll = async () => {
  for (let i = 0; i < 3; i++) {
    await t.deps.db.execute(sql`update tax_invoices set next_attempt_at = now() where status = 'queued'`);
    await transmitDueInvoices(t.deps);
  }
};
async function pay(phone: string, billRef: string, amount = '100.00') {
  const body = c2b({ BillRefNumber: billRef, MSISDN: phone, TransAmount: amount });
  expect((await confirm(t, body)).statusCode).toBe(200);
  const payment = (await paymentByReceipt(t, body.TransID as string))!;
  const [invoice] = await t.deps.db.select().from(taxInvoices).where(and(eq(taxInvoices.paymentId, payment.id), eq(taxInvoices.kind, 'invoice')));
  return invoice!;
}
const get = (token: string, url: string) => t.as(token, { method: 'GET', url });

let tipsInvoice: typeof taxInvoices.$inferSelect;
let otherClientInvoice: typeof taxInvoices.$inferSelect;
let ownClientInvoice: typeof taxInvoices.$inferSelect;
const SUBSCRIBER = '254733600001';

beforeAll(async () => {
  fake = await startFakeOscu();
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  const ref = await seedPeople(t);
  p = await people(t);
  await t.addUser({ email: 'doc-admin@example.com', categoryId: ADMIN });
  const admin = await t.tokenFor('doc-admin@example.com');
  const device = await t.as(admin, { method: 'POST', url: '/api/tax/settings', payload: { tin: TIN, branch_id: '00', device_serial: 'BETDESK-DOC', vat_registered: true, base_url: fake.baseUrl } });
  expect(device.statusCode).toBe(200);
  expect((await t.as(admin, { method: 'POST', url: '/api/tax/initialise' })).statusCode).toBe(200);
  const subscriberId = await ref.person('subscriber', 'Doc Buyer', SUBSCRIBER);
  expect((await t.as(admin, { method: 'PUT', url: `/api/tips/subscribers/${subscriberId}/tax-identity`, payload: { pin: 'P051111111A', name: 'Acme Ltd' } })).statusCode).toBe(200);
  tipsInvoice = await pay(SUBSCRIBER, 'D2');
  const own = await addClient(t.deps.db, { name: 'Own Client', staffId: p.staffId, phone: '254733600002' });
  const other = await addClient(t.deps.db, { name: 'Other Client', staffId: p.otherStaffId, phone: '254733600003' });
  ownClientInvoice = await pay('254733600002', String(own), '1000.00');
  otherClientInvoice = await pay('254733600003', String(other), '1000.00');
  await sendAll();
  await t.deps.db.transaction((tx) => queueCreditNote(tx, { paymentId: tipsInvoice.paymentId!, amountCents: 5_000, reason: 'Half refunded' }));
  await sendAll();
  tipsInvoice = (await t.deps.db.select().from(taxInvoices).where(eq(taxInvoices.id, tipsInvoice.id)))[0]!;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('an invoice a buyer can hold', () => {
  it('prints the A4 invoice with both PINs, the line, taxable value and VAT, KRA’s receipt and signature', async () => {
    const res = await get(p.admin, `/api/tax/invoices/${tipsInvoice.id}/document?format=pdf&size=a4&lang=en`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/pdf/);
    const text = await textOf(res.rawPayload);
    for (const part of [
      'TAX INVOICE',
      `KRA PIN: ${TIN}`,
      'Buyer: Acme Ltd',
      'KRA PIN: P051111111A',
      `Invoice number: INV-00-${tipsInvoice.number}`,
      'Amount (KES): 100.00',
      'Tax rate B (16%)',
      'Taxable value: 86.21',
      'VAT: 13.79',
      `KRA receipt number: ${tipsInvoice.kraReceiptNumber}`,
      `Receipt signature: ${tipsInvoice.kraSignature}`,
      'Scan to check this invoice with KRA',
    ]) {
      expect(text).toContain(part);
    }
  });

  it('prints the credit note as an 80 mm receipt in Kiswahili, tied to its invoice', async () => {
    const [note] = await t.deps.db.select().from(taxInvoices).where(and(eq(taxInvoices.originalId, tipsInvoice.id), eq(taxInvoices.kind, 'credit_note')));
    const res = await get(p.admin, `/api/tax/invoices/${note!.id}/document?size=receipt&lang=sw`);
    expect(res.statusCode).toBe(200);
    const text = await textOf(res.rawPayload);
    expect(text).toContain('HATI YA MKOPO');
    expect(text).toContain(`Inarekebisha ankara: INV-00-${tipsInvoice.number}`);
    expect(text).toContain('Thamani inayotozwa kodi: 43.10');
    expect(text).toContain('VAT: 6.90');
  });

  it('lets staff print only within their scope', async () => {
    expect((await get(p.staff, `/api/tax/invoices/${ownClientInvoice.id}/document`)).statusCode).toBe(200);
    expect((await get(p.staff, `/api/tax/invoices/${tipsInvoice.id}/document`)).statusCode).toBe(200);
    const theirs = await get(p.staff, `/api/tax/invoices/${otherClientInvoice.id}/document`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.headers['content-type']).not.toMatch(/pdf/);
    expect((await get(p.otherStaff, `/api/tax/invoices/${otherClientInvoice.id}/document`)).statusCode).toBe(200);
    expect((await get(p.admin, `/api/tax/invoices/999999/document`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/tax/invoices/${tipsInvoice.id}/document` })).statusCode).toBe(401);
  });

  it("gives the punter their own invoice on the portal, and no one else's", async () => {
    const local = `0${SUBSCRIBER.slice(3)}`;
    expect((await t.app.inject({ method: 'POST', url: '/api/portal/auth/request-code', payload: { phone: local }, remoteAddress: '10.8.0.1' })).statusCode).toBe(200);
    const [sms] = await t.deps.db
      .select({ body: smsMessages.body })
      .from(smsMessages)
      .where(and(eq(smsMessages.recipient, SUBSCRIBER), eq(smsMessages.intent, 'portal.sign-in-code')))
      .orderBy(desc(smsMessages.id))
      .limit(1);
    const verified = await t.app.inject({ method: 'POST', url: '/api/portal/auth/verify', payload: { phone: local, code: sms!.body.match(/\b(\d{6})\b/)![1]! }, remoteAddress: '10.8.0.1' });
    const cookie = `${PORTAL_COOKIE}=${verified.cookies.find((c) => c.name === PORTAL_COOKIE)!.value}`;
    const own = await t.app.inject({ method: 'GET', url: `/api/portal/invoices/${tipsInvoice.id}/document?size=receipt`, headers: { cookie } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toMatch(/^application\/pdf/);
    expect(await textOf(own.rawPayload)).toContain('P051111111A');
    expect((await t.app.inject({ method: 'GET', url: `/api/portal/invoices/${ownClientInvoice.id}/document`, headers: { cookie } })).statusCode).toBe(404);
    // My subscriptions links to it.
    const page = await t.app.inject({ method: 'GET', url: '/portal/account', headers: { cookie } });
    expect(page.body).toContain(`/api/portal/invoices/${tipsInvoice.id}/document`);
  });
});
