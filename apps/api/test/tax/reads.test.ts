import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { smsMessages, subscriptions, taxInvoices } from '../../src/db/schema/index.ts';
import { startFakeOscu, type FakeOscu } from '../../src/integrations/etims/fake-oscu.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { transmitDueInvoices } from '../../src/modules/tax/service.ts';
import { ADMIN, type TestApp, signInToPortal } from '../helpers.ts';
import { appWithFakeDaraja, c2b, confirm, paymentByReceipt, SANDBOX_PASSKEY, seedPeople } from '../mpesa/fixtures.ts';

/**
 * Issue 28: every payment and subscription read by the back office and the portal carries its
 * invoice; the portal's purchase page and My subscriptions show its verification QR, drawn on the
 * server (no script).
 */
let t: TestApp;
let daraja: FakeDaraja;
let oscu: FakeOscu;
let admin: string;
let ref: Awaited<ReturnType<typeof seedPeople>>;

const SHORTCODE = '174379';
const TIN = 'P051234567X';
const qrOf = (signature: string | null) => `https://etims-sbx.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=${TIN}00${signature}`;

beforeAll(async () => {
  oscu = await startFakeOscu();
  ({ t, fake: daraja } = await appWithFakeDaraja({ MPESA_SHORTCODE: SHORTCODE, MPESA_PASSKEY: SANDBOX_PASSKEY }));
  ref = await seedPeople(t);
  await t.addUser({ email: 'reads-admin@example.com', categoryId: ADMIN });
  admin = await t.tokenFor('reads-admin@example.com');
  const api = (url: string, payload: object) => t.as(admin, { method: 'POST', url, payload });
  expect((await api('/api/tax/settings', { tin: TIN, branch_id: '00', device_serial: 'BETDESK-R', vat_registered: false, base_url: oscu.baseUrl })).statusCode).toBe(200);
  expect((await api('/api/tax/initialise', {})).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
  await daraja.close();
  await oscu.close();
});

const get = async (url: string) => {
  const res = await t.as(admin, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const invoiceOfSubscription = async (subscriptionId: number) => {
  const [row] = await t.deps.db
    .select()
    .from(taxInvoices)
    .where(and(eq(taxInvoices.subscriptionId, subscriptionId), eq(taxInvoices.kind, 'invoice')));
  return row!;
};

let ipSeq = 0;
const portalSignIn = (local: string): Promise<string> => signInToPortal(t, local, `10.28.0.${++ipSeq}`);
const asPortal = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

describe('the back office', () => {
  it('carries the invoice on each tips subscription: both lists and the subscriber page, queued then sent', async () => {
    const phone = '254733280001';
    const subscriberId = await ref.person('subscriber', 'Reads Tips', phone);
    const body = c2b({ BillRefNumber: 'D2', MSISDN: phone, BusinessShortCode: SHORTCODE });
    await confirm(t, body);
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));

    const queued = await invoiceOfSubscription(sub!.id);
    const listed = await get('/api/tips/subscriptions/all?perPage=50');
    expect(listed.subscriptions.find((s: { id: number }) => s.id === sub!.id).invoice).toEqual({
      id: queued.id,
      number: queued.number,
      status: 'queued',
      kra_receipt_number: null,
      qr: null,
    });

    await transmitDueInvoices(t.deps);
    const sent = await invoiceOfSubscription(sub!.id);
    const expected = { id: sent.id, number: sent.number, status: 'sent', kra_receipt_number: sent.kraReceiptNumber, qr: qrOf(sent.kraSignature) };
    const active = await get('/api/tips/subscriptions/active?perPage=50');
    expect(active.subscriptions.find((s: { id: number }) => s.id === sub!.id).invoice).toEqual(expected);
    const shown = await get(`/api/tips/subscribers/show?subscriber_id=${subscriberId}`);
    expect(shown.subscriber.subscriptions).toEqual([expect.objectContaining({ id: sub!.id, invoice: expected })]);
    // The payment that made the sale carries the same invoice.
    const payments = await get(`/api/mpesa-transactions?search=${body.TransID as string}`);
    expect(payments.transactions[0].invoice).toEqual(expected);
  });

  it('carries the invoice on each Bet4Me subscription (the lists and the client page), and none on a staff grant', async () => {
    const phone = '254733280002';
    const clientId = await ref.person('client', 'Reads Client', phone);
    const body = c2b({ BillRefNumber: String(clientId), MSISDN: phone, TransAmount: '1000.00', BusinessShortCode: SHORTCODE });
    await confirm(t, body);
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
    expect(sub).toMatchObject({ clientId, planId: ref.weekly.id });
    await transmitDueInvoices(t.deps);
    const sent = await invoiceOfSubscription(sub!.id);
    const expected = { id: sent.id, number: sent.number, status: 'sent', kra_receipt_number: sent.kraReceiptNumber, qr: qrOf(sent.kraSignature) };

    for (const url of ['/api/subscriptions?perPage=50', '/api/subscriptions/all?perPage=50']) {
      const page = await get(url);
      expect(page.subscriptions.find((s: { id: number }) => s.id === sub!.id).invoice).toEqual(expected);
    }
    const ofClient = await get(`/api/clients/subscriptions?client_id=${clientId}`);
    expect(ofClient.list).toEqual([expect.objectContaining({ id: sub!.id, invoice: expected })]);

    // A staff member's grant is no sale: no invoice on its row.
    const [grant] = await t.deps.db
      .insert(subscriptions)
      .values({ clientId, planId: ref.weekly.id, durationDays: 7, amountCents: 0, startsAt: new Date(), expiresAt: new Date(Date.now() + 7 * 86_400_000), source: 'manual' })
      .returning({ id: subscriptions.id });
    const again = await get(`/api/clients/subscriptions?client_id=${clientId}`);
    expect(again.list.find((s: { id: number }) => s.id === grant!.id).invoice).toBeNull();
  });
});

describe('the portal', () => {
  it('shows the invoice and its QR on the purchase page and on My subscriptions, in the punter’s language', async () => {
    const local = '0733280003';
    const e164 = '254733280003';
    await ref.person('subscriber', 'Reads Portal', e164);
    const cookie = await portalSignIn(local);
    daraja.outcomes.push({ resultCode: 0, callback: true, receipt: 'SRD2800001' });
    const bought = await asPortal(cookie, 'POST', '/api/portal/purchase', { package_id: ref.d2Web.id, adult: true });
    expect(bought.statusCode, bought.body).toBe(200);
    const id = bought.json().payment_request_id as number;
    await daraja.settled();
    await confirm(t, c2b({ TransID: 'SRD2800001', TransAmount: '100.00', BillRefNumber: 'D2', MSISDN: sha256Hex(e164), BusinessShortCode: SHORTCODE }));

    // Paid, the invoice queued: its number, no QR yet.
    const paid = (await asPortal(cookie, 'GET', `/api/portal/purchase/${id}`)).json().purchase;
    expect(paid).toMatchObject({ status: 'paid', invoice: { status: 'queued', qr: null } });
    const waiting = await asPortal(cookie, 'GET', `/portal/purchases/${id}`);
    expect(waiting.body).toContain(`Tax invoice ${paid.invoice.number as number}. Its KRA code shows here once KRA has received it.`);
    expect(waiting.body).not.toContain('<svg');

    await transmitDueInvoices(t.deps);
    const payment = (await paymentByReceipt(t, 'SRD2800001'))!;
    const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
    const sent = await invoiceOfSubscription(sub!.id);
    const qr = qrOf(sent.kraSignature);
    expect((await asPortal(cookie, 'GET', `/api/portal/purchase/${id}`)).json().purchase.invoice).toEqual({
      id: sent.id,
      number: sent.number,
      status: 'sent',
      kra_receipt_number: sent.kraReceiptNumber,
      qr,
    });
    const page = await asPortal(cookie, 'GET', `/portal/purchases/${id}`);
    expect(page.body).toContain(`KRA tax invoice ${sent.number}, KRA receipt ${sent.kraReceiptNumber}.`);
    expect(page.body).toMatch(/<svg role="img" aria-label="Check this invoice with KRA"[^>]*><rect[^>]*\/><path fill="#000" d="M/);
    expect(page.body).toContain(`<a href="${qr}" rel="noreferrer">Check this invoice with KRA</a>`);

    const me = (await asPortal(cookie, 'GET', '/api/portal/me')).json();
    expect(me.subscriptions).toEqual([expect.objectContaining({ bet_category_code: 'D2', medium: 'web', invoice: expect.objectContaining({ number: sent.number, qr }) })]);
    expect((await asPortal(cookie, 'GET', '/portal/account')).body).toContain(`<a href="${qr}" rel="noreferrer">Check this invoice with KRA</a>`);

    expect((await asPortal(cookie, 'POST', '/api/portal/language', { language: 'sw' })).statusCode).toBe(200);
    const swahili = await asPortal(cookie, 'GET', '/portal/account');
    expect(swahili.body).toContain(`Ankara ya kodi ya KRA ${sent.number}, risiti ya KRA ${sent.kraReceiptNumber}.`);
    expect(swahili.body).toContain('Thibitisha ankara hii kwa KRA</a>');
  });
});

describe('the receipt SMS', () => {
  const receiptTo = async (phone: string) => {
    const [sms] = await t.deps.db
      .select({ body: smsMessages.body })
      .from(smsMessages)
      .where(and(eq(smsMessages.recipient, phone), eq(smsMessages.intent, 'tips.receipt')))
      .orderBy(desc(smsMessages.id))
      .limit(1);
    return sms!.body;
  };
  const setLine = async (value: boolean) =>
    expect((await t.as(admin, { method: 'POST', url: '/api/settings/update', payload: { key: 'receipt_sms_invoice_line', value } })).statusCode).toBe(200);

  it('carries no invoice line by default, and the sale’s invoice number once the setting allows it', async () => {
    const plain = '254733280004';
    await ref.person('subscriber', 'Reads Plain', plain);
    await confirm(t, c2b({ BillRefNumber: 'D2', MSISDN: plain, BusinessShortCode: SHORTCODE }));
    expect(await receiptTo(plain)).not.toMatch(/Invoice/);

    await setLine(true);
    const lined = '254733280005';
    await ref.person('subscriber', 'Reads Lined', lined);
    const body = c2b({ BillRefNumber: 'D2', MSISDN: lined, BusinessShortCode: SHORTCODE });
    await confirm(t, body);
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
    // The number is the one the sale took in its own transaction, before KRA has the invoice.
    const invoice = await invoiceOfSubscription(sub!.id);
    expect(invoice.status).toBe('queued');
    expect(await receiptTo(lined)).toMatch(new RegExp(`^Thank you Reads Lined\\. .+ Invoice ${invoice.number}\\.$`));
    await setLine(false);
  });
});
