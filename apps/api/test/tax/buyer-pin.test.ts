import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { PORTAL_COOKIE } from '@betdesk/contract';
import { auditLog, smsMessages, taxInvoices } from '../../src/db/schema/index.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import { transmitDueInvoices } from '../../src/modules/tax/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { c2b, confirm, paymentByReceipt, seedPeople } from '../mpesa/fixtures.ts';

/**
 * Decision 074: a buyer's KRA PIN. Staff record it on a subscriber and a client (format checked,
 * KRA's customer lookup asked), a punter on the portal; a sale to the buyer carries it to KRA
 * (custTin/custNm) and onto the VAT return; an invoice sent without it is reissued once.
 */
let t: TestApp;
let fake: FakeOscu;
let admin: string;
let staff: string;
let ref: Awaited<ReturnType<typeof seedPeople>>;
const TIN = 'P051234567X';
const BUYER_PIN = 'P051111111A';

const as = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.as(token, { method, url, ...(payload ? { payload } : {}) });
const sendAll = async () => {
  for (let i = 0; i < 3; i++) {
    await t.deps.db.execute(sql`update tax_invoices set next_attempt_at = now() where status = 'queued'`);
    await transmitDueInvoices(t.deps);
  }
};
async function pay(phone: string, billRef: string, amount = '100.00') {
  const body = c2b({ BillRefNumber: billRef, MSISDN: phone, TransAmount: amount, TransTime: '20261115100000' });
  expect((await confirm(t, body)).statusCode).toBe(200);
  const payment = (await paymentByReceipt(t, body.TransID as string))!;
  const [invoice] = await t.deps.db.select().from(taxInvoices).where(and(eq(taxInvoices.paymentId, payment.id), eq(taxInvoices.kind, 'invoice')));
  return invoice!;
}
const sentToKra = (number: number) => fake.sales.get(`${TIN}/00/${number}`);

let subscriberId: number;
let clientId: number;
const SUBSCRIBER_PHONE = '254733500001';

beforeAll(async () => {
  fake = await startFakeOscu();
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  ref = await seedPeople(t);
  await t.addUser({ email: 'pin-admin@example.com', categoryId: ADMIN });
  await t.addUser({ email: 'pin-staff@example.com' });
  admin = await t.tokenFor('pin-admin@example.com');
  staff = await t.tokenFor('pin-staff@example.com');
  const device = await as(admin, 'POST', '/api/tax/settings', { tin: TIN, branch_id: '00', device_serial: 'BETDESK-PIN', vat_registered: true, base_url: fake.baseUrl });
  expect(device.statusCode).toBe(200);
  expect((await as(admin, 'POST', '/api/tax/initialise')).statusCode).toBe(200);
  subscriberId = await ref.person('subscriber', 'Acme Ltd buyer', SUBSCRIBER_PHONE);
  clientId = await ref.person('client', 'Client Co', '254733500002');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe("a buyer's KRA PIN", () => {
  it('refuses a malformed PIN naming the field, and a PIN without its name', async () => {
    for (const pin of ['P05123456X', 'X051234567A', 'P0512345678', '051234567AB']) {
      const res = await as(staff, 'PUT', `/api/tips/subscribers/${subscriberId}/tax-identity`, { pin, name: 'Acme Ltd' });
      expect(res.statusCode, pin).toBe(422);
      expect(JSON.stringify(res.json())).toMatch(/pin/);
    }
    const noName = await as(staff, 'PUT', `/api/tips/subscribers/${subscriberId}/tax-identity`, { pin: BUYER_PIN, name: '' });
    expect(noName.statusCode).toBe(422);
    expect(JSON.stringify(noName.json())).toMatch(/name/);
    // KRA's lookup does not know a PIN of nine zeros: refused on the PIN.
    const unknown = await as(staff, 'PUT', `/api/tips/subscribers/${subscriberId}/tax-identity`, { pin: 'P000000000A', name: 'Nobody' });
    expect(unknown.statusCode).toBe(422);
    expect(JSON.stringify(unknown.json())).toMatch(/KRA does not know/);
  });

  it('stores a PIN checked with KRA, audited; an empty PIN clears it', async () => {
    fake.taxpayers.set(BUYER_PIN, 'ACME LIMITED');
    const res = await as(staff, 'PUT', `/api/tips/subscribers/${subscriberId}/tax-identity`, { pin: ' p051111111a ', name: 'Acme Ltd' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().identity).toMatchObject({ pin: BUYER_PIN, name: 'Acme Ltd', verification: 'verified', verified_name: 'ACME LIMITED' });
    expect((await as(admin, 'GET', `/api/tips/subscribers/${subscriberId}/tax-identity`)).json().identity.pin).toBe(BUYER_PIN);

    const cleared = await as(admin, 'PUT', `/api/clients/${clientId}/tax-identity`, { pin: 'A123456789Z', name: 'Client Co' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await as(admin, 'PUT', `/api/clients/${clientId}/tax-identity`, { pin: '', name: '' })).json().identity).toBeNull();
    const trail = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'tax-identity.client')).orderBy(auditLog.id);
    expect(trail.map((a) => a.entityId)).toEqual([String(clientId), String(clientId)]);
  });

  it('is unverified when KRA cannot be asked, and staff outside the client are refused', async () => {
    fake.down = true;
    try {
      const res = await as(admin, 'PUT', `/api/clients/${clientId}/tax-identity`, { pin: 'P052222222B', name: 'Client Co' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().identity).toMatchObject({ verification: 'unverified', verified_name: null });
    } finally {
      fake.down = false;
    }
    // The client is not one of the staff member's: not found, nothing written.
    const other = await as(staff, 'PUT', `/api/clients/${clientId}/tax-identity`, { pin: 'P053333333C', name: 'X' });
    expect(other.statusCode).toBe(404);
    expect((await as(staff, 'GET', `/api/clients/${clientId}/tax-identity`)).statusCode).toBe(404);
    expect((await as(admin, 'GET', `/api/clients/${clientId}/tax-identity`)).json().identity.pin).toBe('P052222222B');
  });

  it("carries the PIN to KRA (custTin/custNm) and onto the VAT return's first two columns", async () => {
    const invoice = await pay(SUBSCRIBER_PHONE, 'D2');
    expect(invoice).toMatchObject({ buyerPin: BUYER_PIN, buyerName: 'Acme Ltd' });
    await sendAll();
    expect(sentToKra(invoice.number)).toMatchObject({ custTin: BUYER_PIN, custNm: 'Acme Ltd' });
    const ret = (await as(admin, 'GET', '/api/tax/returns/vat?month=2026-11&perPage=100')).json();
    expect(ret.lines.find((l: { invoice_id: number }) => l.invoice_id === invoice.id)).toMatchObject({ buyer_pin: BUYER_PIN, buyer_name: 'Acme Ltd' });
    const csv = (await as(admin, 'GET', '/api/tax/returns/vat?month=2026-11&format=csv')).body;
    expect(csv).toContain(`${BUYER_PIN},Acme Ltd,`);
  });

  it('reissues an invoice sent without the PIN by a credit note and a new invoice, once', async () => {
    const phone = '254733500009';
    const buyer = await ref.person('subscriber', 'Late PIN', phone);
    const original = await pay(phone, 'D2');
    await sendAll();
    expect(sentToKra(original.number)!.custTin).toBeUndefined();
    // No PIN recorded yet: refused.
    expect((await as(admin, 'POST', `/api/tax/invoices/${original.id}/reissue`)).statusCode).toBe(409);
    expect((await as(staff, 'PUT', `/api/tips/subscribers/${buyer}/tax-identity`, { pin: 'A054444444D', name: 'Late Pin Ltd' })).statusCode).toBe(200);
    // Staff may not reissue (manage:tax).
    expect((await as(staff, 'POST', `/api/tax/invoices/${original.id}/reissue`)).statusCode).toBe(403);
    const first = await as(admin, 'POST', `/api/tax/invoices/${original.id}/reissue`);
    expect(first.statusCode, first.body).toBe(200);
    const again = await as(admin, 'POST', `/api/tax/invoices/${original.id}/reissue`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ credit_note_id: first.json().credit_note_id, invoice_id: first.json().invoice_id });
    const docs = await t.deps.db.select().from(taxInvoices).where(eq(taxInvoices.subscriptionId, original.subscriptionId!)).orderBy(taxInvoices.id);
    expect(docs.map((d) => [d.kind, d.amountCents, d.buyerPin, d.reissueOf, d.cause])).toEqual([
      ['invoice', 10_000, null, null, null],
      ['credit_note', 10_000, null, null, 'reissue'],
      ['invoice', 10_000, 'A054444444D', original.id, null],
    ]);
    await sendAll();
    const note = docs[1]!;
    expect(sentToKra(note.number)).toMatchObject({ rcptTyCd: 'R', orgInvcNo: original.number });
    expect(sentToKra(docs[2]!.number)).toMatchObject({ rcptTyCd: 'S', custTin: 'A054444444D', custNm: 'Late Pin Ltd' });
    const trail = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'tax.reissue'));
    expect(trail).toHaveLength(1);
    // The buyer's card lists all three, the original marked as reissued.
    const card = (await as(staff, 'GET', `/api/tips/subscribers/${buyer}/tax-identity`)).json();
    expect(card.invoices.find((i: { id: number }) => i.id === original.id)).toMatchObject({ reissued_as: docs[2]!.id });
  });

  it('lets a punter add a PIN on the portal (API and the account form)', async () => {
    const local = `0${SUBSCRIBER_PHONE.slice(3)}`;
    expect((await t.app.inject({ method: 'POST', url: '/api/portal/auth/request-code', payload: { phone: local }, remoteAddress: '10.7.0.1' })).statusCode).toBe(200);
    const [sms] = await t.deps.db
      .select({ body: smsMessages.body })
      .from(smsMessages)
      .where(and(eq(smsMessages.recipient, SUBSCRIBER_PHONE), eq(smsMessages.intent, 'portal.sign-in-code')))
      .orderBy(desc(smsMessages.id))
      .limit(1);
    const code = sms!.body.match(/\b(\d{6})\b/)![1]!;
    const verified = await t.app.inject({ method: 'POST', url: '/api/portal/auth/verify', payload: { phone: local, code }, remoteAddress: '10.7.0.1' });
    const cookie = `${PORTAL_COOKIE}=${verified.cookies.find((c) => c.name === PORTAL_COOKIE)!.value}`;
    const bad = await t.app.inject({ method: 'POST', url: '/api/portal/tax-identity', headers: { cookie }, payload: { pin: 'nope', name: 'x' } });
    expect(bad.statusCode).toBe(422);
    const res = await t.app.inject({ method: 'POST', url: '/api/portal/tax-identity', headers: { cookie }, payload: { pin: 'P055555555E', name: 'Acme Holdings' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().identity).toMatchObject({ pin: 'P055555555E', name: 'Acme Holdings' });
    const form = await t.app.inject({
      method: 'POST',
      url: '/portal/tax-identity',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'pin=P051111111A&name=Acme+Ltd',
    });
    expect(form.statusCode).toBe(303);
    const page = await t.app.inject({ method: 'GET', url: '/portal/account', headers: { cookie } });
    expect(page.body).toContain('P051111111A');
    const trail = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'tax-identity.subscriber'), eq(auditLog.entityId, String(subscriberId))));
    expect(trail.length).toBe(3);
    expect(trail.every((a) => a.actorUserId === null || typeof a.actorUserId === 'number')).toBe(true);
  });
});
