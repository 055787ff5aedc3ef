import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { endpoint, MAX_INPUT_DEPTH, PageQuery, textSafetyTexts } from '@betdesk/contract';
import { z } from 'zod';
import { bet4mePlans, mpesaPayments, smsInbound } from '../../src/db/schema/index.ts';
import { csvRoute } from '../../src/http/csv.ts';
import { fieldError } from '../../src/http/errors.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { c2b, confirm, paymentByReceipt, SECRET, seedPeople } from '../mpesa/fixtures.ts';

/** Issue 20, items 1 to 4: no text, nesting or failing export loses a payment or answers a 500. */

let t: TestApp;
let admin: string;
let ref: Awaited<ReturnType<typeof seedPeople>>;

// A CSV export whose first rows fail the way a query does: lazily, once the download is read.
const failingExport = endpoint({
  method: 'GET',
  path: '/api/test/failing-export',
  tag: 'test',
  summary: 'an export whose query fails',
  access: 'view:dashboard',
  query: PageQuery,
  response: z.string(),
});

beforeAll(async () => {
  t = await createTestApp({
    env: { MPESA_SHORTCODE: '600984' },
    routes: (app) =>
      csvRoute(app, failingExport, async () => ({
        filename: 'failing',
        columns: [{ header: 'Name', value: (row: { name: string }) => row.name }],
        rows: (async function* rows() {
          yield* [];
          throw fieldError('search', 'The search cannot be read');
        })(),
      })),
  });
  ref = await seedPeople(t);
  await t.addUser({ email: 'boss@example.com', categoryId: ADMIN });
  admin = await t.tokenFor('boss@example.com');
});
afterAll(() => t.close());

const nested = (levels: number, bottom = '"x"') => `${'{"a":'.repeat(levels)}${bottom}${'}'.repeat(levels)}`;

describe('a NUL in what M-Pesa sends never loses the payment', () => {
  it('stores a C2B confirmation with a NUL in FirstName, the name cleaned and the raw body escaped', async () => {
    const clientId = await ref.person('client', 'Nul Payer', '254733900001');
    const res = await confirm(
      t,
      '{"TransID":"NUL000001","TransAmount":"10.00","BillRefNumber":"D2","MSISDN":"254712000009","FirstName":"A\\u0000B"}',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ResultCode: 0, ResultDesc: 'Success' });
    const stored = await paymentByReceipt(t, 'NUL000001');
    expect(stored).toMatchObject({ status: 'unclaimed', amountCents: 1000, senderName: 'AB', rejectReason: null });
    expect(stored!.raw).toMatchObject({ TransID: 'NUL000001', FirstName: 'A\\u0000B' });

    const list = await t.as(admin, { method: 'GET', url: '/api/mpesa-transactions?search=NUL000001' });
    expect(list.json().transactions).toMatchObject([{ id: stored!.id, sender_name: 'AB', amount: 10 }]);
    const claim = await t.as(admin, { method: 'POST', url: '/api/mpesa-transactions/claim', payload: { transaction_id: stored!.id, client_id: clientId } });
    expect(claim.statusCode).toBe(200);
    expect(claim.json().transaction).toMatchObject({ status: 'claimed', client_id: clientId });
  });

  it('stores a lone surrogate and other control characters as received, readable', async () => {
    const body = c2b({ BillRefNumber: 'NOBODY-HERE', FirstName: 'JANE\ud800', LastName: 'WAN\u0007JIKU' });
    expect((await confirm(t, body)).statusCode).toBe(200);
    const stored = await paymentByReceipt(t, body.TransID as string);
    expect(stored).toMatchObject({ status: 'unclaimed', senderName: 'JANE\ufffd WANJIKU' });
    expect(stored!.raw).toMatchObject({ LastName: 'WAN\\u0007JIKU' });
  });

  it('keeps a C2B body nested 5,000 levels deep as a rejected payload, answered as Daraja expects', async () => {
    const res = await confirm(t, `{"TransID":"DEEP000001","TransAmount":"10.00","Extra":${nested(5000)}}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ResultCode: 0, ResultDesc: 'Success' });
    const [stored] = await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.rejectReason, textSafetyTexts.tooDeep));
    expect(stored).toMatchObject({ status: 'rejected', transId: null });
    expect(stored!.raw).toMatchObject({ TransID: 'DEEP000001', TransAmount: '10.00' });
    // What can be kept is kept: the levels the database can hold, then a note of what was dropped.
    let level: unknown = (stored!.raw as { Extra: unknown }).Extra;
    for (let i = 1; i < MAX_INPUT_DEPTH; i += 1) level = (level as { a: unknown }).a;
    expect(level).toBe(textSafetyTexts.deepValueDropped);
  });

  it('answers the STK callback and C2B validation nested deep or with NUL without a 5xx', async () => {
    for (const [url, payload] of [
      [`/api/hooks/stk/${SECRET}`, nested(5000)],
      [`/api/hooks/stk/${SECRET}`, '{"Body":{"stkCallback":{"CheckoutRequestID":"ws_CO_\\u0000","ResultCode":1032,"ResultDesc":"Can\\u0000celled"}}}'],
      [`/api/hooks/c2b/validation/${SECRET}`, nested(5000)],
      [`/api/hooks/c2b/validation/${SECRET}`, '{"TransID":"NUL000002","TransAmount":"10.00","FirstName":"A\\u0000B"}'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode, `${url} ${payload.slice(0, 40)}`).toBe(200);
    }
  });
});

describe("a NUL in what Africa's Talking sends is cleaned, never a 500", () => {
  const form = (path: string, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/hooks/sms/${path}/${SECRET}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  it('stores an incoming message with a NUL, its text cleaned', async () => {
    const res = await form('inbound', { from: '+254733900002', to: '22384', text: 'HE\u0000LP', id: 'ATin-nul-1\u0000' });
    expect(res.statusCode).toBe(200);
    const [stored] = await t.deps.db.select().from(smsInbound).where(eq(smsInbound.providerId, 'ATin-nul-1'));
    expect(stored).toMatchObject({ text: 'HELP', phone: '254733900002' });
  });

  it('acknowledges a delivery report and an opt-out with NULs', async () => {
    expect((await form('delivery', { id: 'ATXid_\u0000', status: 'Succ\u0000ess', phoneNumber: '+2547\u000033900003' })).statusCode).toBe(200);
    expect((await form('optout', { senderId: 'BET\u0000DESK', phoneNumber: '+2547339\u000000004' })).statusCode).toBe(200);
    const subscriberId = await ref.person('subscriber', 'Opted Out Nul', '254733900004');
    const state = await t.as(admin, { method: 'GET', url: `/api/sms/opt-out/subscriber?subscriber_id=${subscriberId}` });
    expect(state.json().opt_out).toMatchObject({ opted_out: true });
  });

  it('answers the SMS hooks nested deep without a 5xx', async () => {
    for (const path of ['inbound', 'delivery', 'optout']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/hooks/sms/${path}/${SECRET}`,
        headers: { 'content-type': 'application/json' },
        payload: nested(5000),
      });
      expect(res.statusCode, path).toBeLessThan(500);
    }
  });
});

describe('staff input with control characters is refused, naming the field', () => {
  const expectRefused = (res: { statusCode: number; json(): { errors?: Record<string, string[]> } }, field: string) => {
    expect(res.statusCode).toBe(422);
    expect(res.json().errors?.[field]).toEqual([textSafetyTexts.unsafeText]);
  };

  it('refuses a NUL in the login email', async () => {
    expectRefused(await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'boss\u0000@example.com', password: 'x' } }), 'email');
  });

  it("refuses a NUL in every list's search and the audit entity", async () => {
    for (const url of ['/api/clients?search=%00', '/api/mpesa-transactions/search?search=a%00', '/api/bets/open?search=%00', '/api/tips/subscribers/active?search=%00']) {
      expectRefused(await t.as(admin, { method: 'GET', url }), 'search');
    }
    expectRefused(await t.as(admin, { method: 'GET', url: '/api/audit?entity=client%00' }), 'entity');
  });

  it('refuses a lone surrogate and a NUL in a write, nothing stored', async () => {
    const surrogate = await t.as(admin, {
      method: 'POST',
      url: '/api/catalogue/plans/store',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"Fortnight \\ud800","duration":14,"price":1000}',
    });
    expectRefused(surrogate, 'name');
    const nul = await t.as(admin, { method: 'POST', url: '/api/catalogue/plans/store', payload: { name: 'Fortnight\u0000', duration: 14, price: 1000 } });
    expectRefused(nul, 'name');
    const plans = await t.deps.db.select().from(bet4mePlans);
    expect(plans.map((p) => p.name)).toEqual(['Weekly', 'Monthly']);
    // The same plan without the control character is taken.
    const ok = await t.as(admin, { method: 'POST', url: '/api/catalogue/plans/store', payload: { name: 'Fortnight', duration: 14, price: 1000 } });
    expect(ok.statusCode).toBe(200);
  });

  it('names a nested field and a record key, whatever the schema declares', () => {
    const form = endpoint({
      method: 'POST',
      path: '/api/test/nested',
      tag: 'test',
      summary: 'nested text',
      access: 'public',
      body: z.object({ posts: z.array(z.object({ content: z.string() })), media: z.record(z.string(), z.string()) }),
      response: z.object({}),
    });
    const result = form.body!.safeParse({ posts: [{ content: 'ok' }, { content: 'a\u0000b' }], media: { 'k\ud800': 'v' } });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['posts.1.content', textSafetyTexts.unsafeText],
      ['media.k\ud800', textSafetyTexts.unsafeText],
    ]);
    expect(form.body!.safeParse({ posts: [{ content: 'line one\r\n\tline two' }], media: {} }).success).toBe(true);
  });
});

describe('an export fails before its first byte, or finishes', () => {
  it('answers search=%00 on an export with a JSON 422, not a broken download', async () => {
    for (const url of ['/api/mpesa-transactions/export?search=%00', '/api/clients/export?search=%00', '/api/bonuses/paid/export?search=%00']) {
      const res = await t.as(admin, { method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(res.statusCode, url).toBe(422);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.headers['content-disposition']).toBeUndefined();
    }
  });

  it('answers an export whose query fails with the error, before any CSV header is sent', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/test/failing-export', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.json().errors).toEqual({ search: ['The search cannot be read'] });
  });

  it('still streams a whole export', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/mpesa-transactions/export' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body).toContain('NUL000001');
  });
});

describe('API answers are never cached', () => {
  it('sends Cache-Control: no-store on the login answer and on a client with passwords', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'boss@example.com', password: 'correct-horse-battery' } });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const clientId = await ref.person('client', 'Cached Client', '254733900005');
    const show = await t.as(admin, { method: 'GET', url: `/api/clients/show?client_id=${clientId}` });
    expect(show.statusCode).toBe(200);
    expect(show.headers['cache-control']).toBe('no-store');
  });

  it('sends it on errors too', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/clients?search=%00' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/api/no-such-thing' })).headers['cache-control']).toBe('no-store');
  });
});
