import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { mpesaPayments, pricePackages, stkRequests, subscriptions } from '../../src/db/schema/index.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createDarajaClient } from '../../src/integrations/mpesa/daraja.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { settleFromQuery } from '../../src/modules/mpesa/stk-query.ts';
import type { TestApp } from '../helpers.ts';
import { c2b, confirm, ledgerOf, paymentByReceipt, SECRET, SANDBOX_PASSKEY, darajaWorld, closeDarajaWorld, type Reference } from './fixtures.ts';

/**
 * Issue 12, M-Pesa: real Daraja traffic that lost money. The store number is 600984, its till
 * 5123456; anything else is another business's shortcode.
 */
const STORE = '600984';
const TILL = '5123456';

let t: TestApp;
let fake: FakeDaraja;
let ref: Reference;
let admin: string;

beforeAll(async () => {
  ({ t, fake, ref, admin } = await darajaWorld({ MPESA_SHORTCODE: STORE, MPESA_TILL_NUMBER: TILL, MPESA_PASSKEY: SANDBOX_PASSKEY }));
});
afterAll(() => closeDarajaWorld({ t, fake }));

const validate = (body: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/hooks/c2b/validation/${SECRET}`, payload: body as object });

async function rowsOf(transId: string) {
  return t.deps.db
    .select()
    .from(mpesaPayments)
    .where(sql`${mpesaPayments.transId} = ${transId} or ${mpesaPayments.raw}->>'TransID' = ${transId}`);
}

describe('case 1: a C2B payment to another shortcode', () => {
  it('is stored once (5 repeats), unclaimed with a warning, counted, found by search and claimable', async () => {
    const subscriberId = await ref.person('subscriber', 'Other Code Payer', '254722500001');
    const before = (await t.as(admin, { method: 'GET', url: '/api/mpesa-transactions?page=1&perPage=50' })).json();
    // Its account and phone would match a subscriber: still not matched automatically.
    const body = c2b({ BusinessShortCode: '777777', BillRefNumber: 'D2', MSISDN: '254722500001', TransAmount: '250.00' });
    for (let i = 0; i < 5; i += 1) {
      const res = await confirm(t, body);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ResultCode: 0, ResultDesc: 'Success' });
    }
    const stored = await rowsOf(body.TransID as string);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ status: 'unclaimed', amountCents: 25_000, rejectReason: null, subscriberId: null });
    expect(stored[0]!.warning).toContain('Not our shortcode: paid to 777777');

    const after = (await t.as(admin, { method: 'GET', url: '/api/mpesa-transactions?page=1&perPage=50' })).json();
    expect(after.total_unclaimed - before.total_unclaimed).toBe(250);
    expect(after.total_deposit - before.total_deposit).toBe(250);

    const search = await t.as(admin, { method: 'GET', url: `/api/mpesa-transactions/search?search=${body.TransID as string}` });
    expect(search.json().transactions).toEqual([
      expect.objectContaining({ transaction_reference: body.TransID, status: 'unclaimed', amount: 250, warning: stored[0]!.warning }),
    ]);

    const claim = await t.as(admin, {
      method: 'POST',
      url: '/api/mpesa-transactions/claim',
      payload: { transaction_id: stored[0]!.id, subscriber_id: subscriberId },
    });
    expect(claim.statusCode).toBe(200);
    expect(claim.json().transaction).toMatchObject({ status: 'claimed', subscriber_id: subscriberId });
  });

  it('matches a confirmation carrying the till number like one to the store number', async () => {
    const subscriberId = await ref.person('subscriber', 'Till Payer', '254722500002');
    const body = c2b({ TransactionType: 'Buy Goods', BusinessShortCode: TILL, BillRefNumber: '', MSISDN: sha256Hex('254722500002'), TransAmount: '100.00' });
    await confirm(t, body);
    const stored = await paymentByReceipt(t, body.TransID as string);
    expect(stored).toMatchObject({ status: 'claimed', subscriberId, warning: null });
  });

  it('validation refuses another shortcode with C2B00015 and accepts the store number and the till', async () => {
    expect((await validate(c2b({ BusinessShortCode: '777777' }))).json()).toEqual({ ResultCode: 'C2B00015', ResultDesc: 'Rejected' });
    expect((await validate(c2b({ BusinessShortCode: STORE }))).json()).toEqual({ ResultCode: '0', ResultDesc: 'Accepted' });
    expect((await validate(c2b({ BusinessShortCode: TILL }))).json()).toEqual({ ResultCode: '0', ResultDesc: 'Accepted' });
  });
});

/** The Daraja client's configuration against the fake, paying `partyB`. */
const darajaConfig = (
  partyB: string,
  transactionType: 'CustomerBuyGoodsOnline' | 'CustomerPayBillOnline' = 'CustomerBuyGoodsOnline',
) => ({
  baseUrl: fake.baseUrl,
  consumerKey: fake.consumerKey,
  consumerSecret: fake.consumerSecret,
  shortcode: STORE,
  passkey: SANDBOX_PASSKEY,
  callbackBaseUrl: 'https://betdesk.example.com',
  transactionType,
  partyB,
});

describe('case 2: STK push for a till (CustomerBuyGoodsOnline)', () => {
  const push = { phone: '254722500003', amountKes: 100, accountReference: 'D2', description: 'Tips package' };

  it('sends PartyB = the till from configuration, and Daraja accepts it', async () => {
    fake.tills = [TILL];
    const env = {
      MPESA_CONSUMER_KEY: 'k',
      MPESA_CONSUMER_SECRET: 's',
      MPESA_SHORTCODE: STORE,
      MPESA_TILL_NUMBER: TILL,
      MPESA_CALLBACK_BASE_URL: 'https://betdesk.example.com',
      MPESA_TRANSACTION_TYPE: 'CustomerBuyGoodsOnline',
      DATA_DIR: t.deps.config.dataDir,
    };
    const configured = loadConfig(env).mpesa.api!;
    expect(configured).toMatchObject({ shortcode: STORE, partyB: TILL });
    fake.outcomes.push({ resultCode: 1032, callback: false });
    await createDarajaClient(darajaConfig(configured.partyB), SECRET).stkPush(push);
    expect(fake.pushes.at(-1)).toMatchObject({ BusinessShortCode: STORE, PartyB: TILL, TransactionType: 'CustomerBuyGoodsOnline' });
  });

  it('the fake refuses PartyB = the store number as Daraja does ("The operator does not exist")', async () => {
    fake.tills = [TILL];
    await expect(createDarajaClient(darajaConfig(STORE), SECRET).stkPush(push)).rejects.toThrow('The operator does not exist');
  });

  it('configuration refuses Buy Goods without a till', () => {
    expect(() =>
      loadConfig({
        MPESA_CONSUMER_KEY: 'k',
        MPESA_CONSUMER_SECRET: 's',
        MPESA_SHORTCODE: STORE,
        MPESA_CALLBACK_BASE_URL: 'https://betdesk.example.com',
        MPESA_TRANSACTION_TYPE: 'CustomerBuyGoodsOnline',
        DATA_DIR: t.deps.config.dataDir,
      }),
    ).toThrow(ConfigError);
  });
});

describe('case 3: an STK success callback after the request was given up', () => {
  async function failedRequest(subscriberId: number, phone: string, receiptNo: string) {
    fake.outcomes.push({ resultCode: 0, callback: true, hold: true, queryPending: true, receipt: receiptNo });
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/payment-requests/store',
      payload: { subscriber_id: subscriberId, item: `package:${ref.d2Sms.id}`, phone: `0${phone.slice(3)}` },
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().request.id as number;
    // The STK query kept saying "being processed" until Betdesk stopped waiting.
    expect(await settleFromQuery(t.deps, id, { resultCode: null, resultDesc: '' }, 1)).toBe('failed');
    const [row] = await t.deps.db.select().from(stkRequests).where(eq(stkRequests.id, id));
    return row!;
  }

  const subsOf = (subscriberId: number) => t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, subscriberId));

  it('stores and activates once when the callback comes first and the C2B confirmation after', async () => {
    const phone = '254722500004';
    const subscriberId = await ref.person('subscriber', 'Late Callback Payer', phone);
    const request = await failedRequest(subscriberId, phone, 'SKL3000001');
    await fake.releaseCallback(request.checkoutRequestId!);
    await confirm(t, c2b({ TransID: 'SKL3000001', BillRefNumber: 'D2', MSISDN: sha256Hex(phone), BusinessShortCode: STORE }));

    expect(await rowsOf('SKL3000001')).toHaveLength(1);
    const payment = await paymentByReceipt(t, 'SKL3000001');
    expect(payment).toMatchObject({ status: 'claimed', subscriberId, amountCents: 10_000 });
    expect(await subsOf(subscriberId)).toHaveLength(1);
    expect(await ledgerOf(t, { subscriberId })).toBe(0);
    const [after] = await t.deps.db.select().from(stkRequests).where(eq(stkRequests.id, request.id));
    expect(after).toMatchObject({ status: 'paid', paymentId: payment!.id });
  });

  it('stores and activates once when the C2B confirmation (unmatched) comes first and the callback after', async () => {
    const phone = '254722500005';
    const subscriberId = await ref.person('subscriber', 'Late Both Payer', phone);
    const request = await failedRequest(subscriberId, phone, 'SKL3000002');
    // Masked MSISDN and an account naming nothing: C2B alone cannot tell whose it is.
    await confirm(t, c2b({ TransID: 'SKL3000002', BillRefNumber: 'NOBODY', MSISDN: '2547 ***** 005', BusinessShortCode: STORE }));
    expect((await paymentByReceipt(t, 'SKL3000002'))?.status).toBe('unclaimed');
    await fake.releaseCallback(request.checkoutRequestId!);
    // A repeat of the late callback changes nothing.
    const repeat = {
      Body: {
        stkCallback: {
          MerchantRequestID: request.merchantRequestId,
          CheckoutRequestID: request.checkoutRequestId,
          ResultCode: 0,
          ResultDesc: 'The service request is processed successfully.',
          CallbackMetadata: { Item: [{ Name: 'Amount', Value: 100 }, { Name: 'MpesaReceiptNumber', Value: 'SKL3000002' }, { Name: 'PhoneNumber', Value: Number(phone) }] },
        },
      },
    };
    await t.app.inject({ method: 'POST', url: `/api/hooks/stk/${SECRET}`, payload: repeat });

    expect(await rowsOf('SKL3000002')).toHaveLength(1);
    const payment = await paymentByReceipt(t, 'SKL3000002');
    expect(payment).toMatchObject({ status: 'claimed', subscriberId, matchedBy: 'stk' });
    const subs = await subsOf(subscriberId);
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ packageId: ref.d2Sms.id, paymentId: payment!.id });
    expect(await ledgerOf(t, { subscriberId })).toBe(0);
  });
});

describe('case 4: a package priced with cents', () => {
  it('is asked in whole shillings (rounded up, and the label says so) and activates when paid', async () => {
    const [odd] = await t.deps.db
      .insert(pricePackages)
      .values({ betCategoryId: ref.ov.id, medium: 'sms', name: 'Over 2.5 SMS odd price', durationDays: 3, priceCents: 9_950 })
      .returning();
    const subscriberId = await ref.person('subscriber', 'Cents Payer', '254722500006');
    const options = await t.as(admin, { method: 'GET', url: `/api/payment-requests/options?subscriber_id=${subscriberId}` });
    const item = options.json().items.find((i: { key: string }) => i.key === `package:${odd!.id}`);
    expect(item).toMatchObject({ amount: 100 });
    expect(item.label).toContain('KES 99.50 asked as KES 100');

    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'SKC4000001' });
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/payment-requests/store',
      payload: { subscriber_id: subscriberId, item: `package:${odd!.id}`, phone: '0722500006' },
    });
    expect(res.statusCode).toBe(200);
    expect(fake.pushes.at(-1)).toMatchObject({ Amount: 100 });
    await fake.settled();
    const payment = await paymentByReceipt(t, 'SKC4000001');
    expect(payment).toMatchObject({ status: 'claimed', amountCents: 10_000 });
    const subs = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment!.id));
    expect(subs).toEqual([expect.objectContaining({ packageId: odd!.id })]);
  });

  it('the fake Daraja refuses a decimal Amount, as Daraja does', async () => {
    const client = createDarajaClient(
      darajaConfig(STORE, 'CustomerPayBillOnline'),
      SECRET,
      // Bypass the client's own rounding to see the fake's answer.
      (input, init) => fetch(input, init?.body ? { ...init, body: String(init.body).replace('"Amount":100', '"Amount":99.5') } : init),
    );
    await expect(client.stkPush({ phone: '254722500007', amountKes: 100, accountReference: 'D2', description: 'x' })).rejects.toThrow('Invalid Amount');
  });
});
