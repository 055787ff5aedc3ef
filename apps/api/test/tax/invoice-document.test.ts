import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { INVOICE_LINK_DAYS, invoiceLinkTexts } from '@betdesk/contract';
import { PORTAL_COOKIE } from '@betdesk/contract';
import { auditLog, smsMessages, taxInvoices } from '../../src/db/schema/index.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import { queueCreditNote, transmitDueInvoices } from '../../src/modules/tax/service.ts';
import { issueInvoiceTicket } from '../../src/modules/tax/invoice-link.ts';
import { setLanguage } from '../../src/modules/sms/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';
import { textOf } from './pdf-text.ts';
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

describe('a link to the invoice by SMS (decision 087)', () => {
  const send = (token: string, id: number) => t.as(token, { method: 'POST', url: `/api/tax/invoices/${id}/send-link` });
  const linksTo = async (phone: string) =>
    t.deps.db
      .select({ id: smsMessages.id, body: smsMessages.body, subscriberId: smsMessages.subscriberId, clientId: smsMessages.clientId })
      .from(smsMessages)
      .where(and(eq(smsMessages.recipient, phone), eq(smsMessages.intent, 'tax.invoice-link')))
      .orderBy(smsMessages.id);
  const ticketIn = (body: string) => body.match(/\/portal\/i\/([0-9a-z]+\.[0-9a-z]+\.[A-Za-z0-9_-]{22})/)![1]!;
  const open = (ticket: string, query = '') => t.app.inject({ method: 'GET', url: `/portal/i/${ticket}${query}` });

  it('texts the buyer a link that opens the invoice as a PDF without signing in', async () => {
    const res = await send(p.admin, tipsInvoice.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ info: invoiceLinkTexts.sentTo('254733***001'), to: '254733***001', already_sent: false });
    const [sms] = await linksTo(SUBSCRIBER);
    expect(sms!.id).toBe(res.json().sms_id);
    expect(sms!.subscriberId).not.toBeNull();
    expect(sms!.body).toContain(`Your tax invoice INV-00-${tipsInvoice.number} from`);
    expect(sms!.body).toContain(`works for ${INVOICE_LINK_DAYS} days`);
    const ticket = ticketIn(sms!.body);
    // The link opens a portal page (no sign-in) with the receipt and the A4 page.
    const page = await open(ticket);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(`Tax invoice INV-00-${tipsInvoice.number}`);
    expect(page.body).toContain(`href="/portal/i/${ticket}/pdf?size=receipt"`);
    expect(page.body).toContain(`href="/portal/i/${ticket}/pdf?size=a4"`);
    const pdf = await open(ticket, '/pdf?size=receipt');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toMatch(/^application\/pdf/);
    const text = await textOf(pdf.rawPayload);
    expect(text).toContain(`INV-00-${tipsInvoice.number}`);
    expect(text).toContain('P051111111A');
    expect(await textOf((await open(ticket, '/pdf?size=a4')).rawPayload)).toContain('TAX INVOICE');
    // The audit says who sent it to whom, never the link itself.
    const [entry] = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'tax.invoice-link'), eq(auditLog.entityId, String(tipsInvoice.id))));
    expect(JSON.stringify(entry)).toContain('254733***001');
    expect(JSON.stringify(entry)).not.toContain(ticket);
  });

  it('sends one live link a day per document: a double click sends one, a failed one may go again', async () => {
    const again = await send(p.admin, tipsInvoice.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ info: invoiceLinkTexts.alreadySent, sms_id: null, already_sent: true });
    expect(await linksTo(SUBSCRIBER)).toHaveLength(1);
    await t.deps.db.update(smsMessages).set({ status: 'failed' }).where(and(eq(smsMessages.recipient, SUBSCRIBER), eq(smsMessages.intent, 'tax.invoice-link')));
    const retried = await send(p.admin, tipsInvoice.id);
    expect(retried.json().already_sent).toBe(false);
    expect(await linksTo(SUBSCRIBER)).toHaveLength(2);
  });

  it('opens nothing for an altered, foreign or expired link, and says which in a page', async () => {
    const [, sms] = await linksTo(SUBSCRIBER);
    const ticket = ticketIn(sms!.body);
    const last = ticket.slice(-1) === 'A' ? 'B' : 'A';
    const altered = await open(`${ticket.slice(0, -1)}${last}`);
    expect(altered.statusCode).toBe(404);
    expect(altered.headers['content-type']).toMatch(/text\/html/);
    expect(altered.body).toContain('This invoice link is not valid');
    // The same signature on another document, or a link made for another phone: not valid.
    expect((await open(ticket.replace(/^[0-9a-z]+/, ownClientInvoice.id.toString(36)))).statusCode).toBe(404);
    expect((await open(issueInvoiceTicket(t.deps.config.secretsKey, tipsInvoice.id, '254799999999').ticket)).statusCode).toBe(404);
    expect((await open('not-a-ticket')).statusCode).toBe(404);
    const old = issueInvoiceTicket(t.deps.config.secretsKey, tipsInvoice.id, SUBSCRIBER, Date.now() - (INVOICE_LINK_DAYS + 1) * 24 * 60 * 60 * 1000);
    const expired = await open(old.ticket);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This invoice link has expired');
    expect((await open(old.ticket, '/pdf')).statusCode).toBe(410);
    expect((await open(`${ticket.slice(0, -1)}${last}`, '/pdf')).headers['content-type']).not.toMatch(/pdf/);
  });

  it('texts in the buyer’s language, and keeps the link from staff who read the log', async () => {
    const phone = '254733600002';
    await setLanguage(t.deps.db, { phone, language: 'sw', source: 'staff', by: null });
    const res = await send(p.staff, ownClientInvoice.id);
    expect(res.statusCode, res.body).toBe(200);
    const [sms] = await linksTo(phone);
    expect(sms!.body).toContain(`Ankara yako ya kodi INV-00-${ownClientInvoice.number}`);
    expect(sms!.clientId).not.toBeNull();
    const log = await t.as(p.admin, { method: 'GET', url: `/api/sms/log/show?id=${sms!.id}` });
    expect(log.statusCode).toBe(200);
    expect(log.body).not.toContain('/portal/i/');
    expect(log.body).toContain('[invoice link sent; the link is hidden]');
  });

  it('lets only those who may print the document send it', async () => {
    expect((await send(p.staff, otherClientInvoice.id)).statusCode).toBe(404);
    expect((await send(p.admin, 999_999)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/tax/invoices/${tipsInvoice.id}/send-link` })).statusCode).toBe(401);
    expect(await linksTo('254733600003')).toHaveLength(0);
  });
});
