import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { smsMessages, stkRequests, subscriptions, tipsSubscribers } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { ERASED_PAYER_WARNING, paidByErasedPerson } from '../../src/modules/mpesa/matching.ts';
import { setLanguage } from '../../src/modules/sms/service.ts';
import { publishSmsTip } from '../../src/modules/tips-sms/service.ts';
import type { TestApp } from '../helpers.ts';
import { c2b as daraja, confirm, declaredAdult, ledgerOf, paymentByReceipt, SANDBOX_PASSKEY, darajaWorld, closeDarajaWorld, type Reference } from '../mpesa/fixtures.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: Reference;
let admin: string;

beforeAll(async () => {
  // These new payers declared 18+ on the portal or USSD before paying (decision 066); a paybill
  // payment from a phone that never declared is test/compliance/age-reply.test.ts.
  const declaring = ['254711000001', '254711000002', '254711000003', '254711000005', '254711000006', '254711000007', '254711000008', '254711000015', '254711000020', '254711000021', '254711000022', '254711000023'];
  ({ t, fake, ref, admin } = await darajaWorld({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  await declaredAdult(t, ...declaring);
  await publishSmsTip(t.deps.db, { betCategoryId: ref.d2.id, content: 'Today D2: Arsenal & Chelsea GG', createdBy: null });
});
afterAll(() => closeDarajaWorld({ t, fake }));

/** A C2B confirmation to this server's shortcode. */
const c2b = (over: Record<string, unknown>) => daraja({ BusinessShortCode: '174379', ...over });

async function subscriberByPhone(phone: string) {
  const [found] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
  return found;
}

async function messagesTo(phone: string) {
  return t.deps.db
    .select({ intent: smsMessages.intent, body: smsMessages.body, smsClass: smsMessages.smsClass })
    .from(smsMessages)
    .where(eq(smsMessages.recipient, phone))
    .orderBy(asc(smsMessages.id));
}

const inbound = (form: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/hooks/sms/inbound/test-webhook-secret-0123',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });

describe('Pay to subscribe', () => {
  it('subscribes a new payer with a plain MSISDN who pays a package price, then sends the receipt and today\'s tip once', async () => {
    const body = c2b({ BillRefNumber: 'D2', MSISDN: '254711000001', FirstName: 'JANE', MiddleName: 'W', LastName: 'OTIENO', TransAmount: '100.00' });
    await confirm(t, body);
    const subscriber = await subscriberByPhone('254711000001');
    expect(subscriber).toMatchObject({ name: 'JANE W OTIENO' });
    const payment = await paymentByReceipt(t, body.TransID as string);
    expect(payment).toMatchObject({ status: 'claimed', subscriberId: subscriber!.id });
    const subs = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment!.id));
    expect(subs).toMatchObject([{ packageId: ref.d2Sms.id, medium: 'sms' }]);
    const sent = await messagesTo('254711000001');
    expect(sent.map((m) => m.intent)).toEqual(['tips.receipt', 'tips.sms-tip']);
    expect(sent[0]!.body).toContain(`KES 100.00 received (${body.TransID as string})`);
    expect(sent[0]!.body).toContain('Daily 2 Odds SMS weekly');
    expect(sent[1]).toMatchObject({ body: 'Today D2: Arsenal & Chelsea GG', smsClass: 'service' });

    // A renewal the same day gets its receipt, but the same tip version is not sent twice.
    await confirm(t, c2b({ BillRefNumber: 'D2', MSISDN: '254711000001', TransAmount: '100.00' }));
    expect((await messagesTo('254711000001')).map((m) => m.intent)).toEqual(['tips.receipt', 'tips.sms-tip', 'tips.receipt']);
  });

  it('subscribes the phone written after the code, paid from a hashed MSISDN', async () => {
    const body = c2b({ BillRefNumber: 'D2 0711000002', MSISDN: sha256Hex('254799999999'), FirstName: 'PETER', LastName: 'MWANGI' });
    await confirm(t, body);
    const subscriber = await subscriberByPhone('254711000002');
    expect(subscriber).toMatchObject({ name: 'PETER MWANGI' });
    expect(await paymentByReceipt(t, body.TransID as string)).toMatchObject({ status: 'claimed', subscriberId: subscriber!.id });
  });

  it('leaves a payer known only by a hashed or masked number unclaimed, and says why on the payments screen', async () => {
    const hashed = c2b({ BillRefNumber: 'D2', MSISDN: sha256Hex('254711000003') });
    const masked = c2b({ BillRefNumber: 'D2', MSISDN: '2547 ***** 004' });
    await confirm(t, hashed);
    await confirm(t, masked);
    expect(await subscriberByPhone('254711000003')).toBeUndefined();
    const res = await t.as(admin, { method: 'GET', url: '/api/mpesa-transactions?perPage=50' });
    const shown = res.json().transactions.filter((p: { transaction_reference: string }) =>
      [hashed.TransID, masked.TransID].includes(p.transaction_reference),
    );
    expect(shown).toHaveLength(2);
    for (const p of shown) {
      expect(p).toMatchObject({ status: 'unclaimed', unclaimed_reason: "payer's number is hidden: claim it to a subscriber" });
    }
  });

  it('keeps an odd amount as credit on the new subscriber and texts the prices and how to pay', async () => {
    const body = c2b({ BillRefNumber: 'D2', MSISDN: '254711000005', TransAmount: '73.00' });
    await confirm(t, body);
    const subscriber = await subscriberByPhone('254711000005');
    expect(await ledgerOf(t, { subscriberId: subscriber!.id })).toBe(7_300);
    const sent = await messagesTo('254711000005');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.intent).toBe('tips.credit');
    expect(sent[0]!.body).toContain('KES 73.00 received');
    expect(sent[0]!.body).toContain('SMS 7 days KES 100.00');
    expect(sent[0]!.body).toContain('account number D2');
  });

  it('texts the credit and the prices in the language the phone chose', async () => {
    await setLanguage(t.deps.db, { phone: '254711000015', language: 'sw', source: 'sms', by: null });
    await confirm(t, c2b({ BillRefNumber: 'D2', MSISDN: '254711000015', TransAmount: '73.00' }));
    const sent = await messagesTo('254711000015');
    expect(sent.map((m) => m.intent)).toEqual(['tips.credit']);
    expect(sent[0]!.body).toContain('Tumepokea KES 73.00');
    expect(sent[0]!.body).toContain('Tips za');
    expect(sent[0]!.body).toContain('nambari ya akaunti D2');
  });

  it('keeps the money of an erased person unclaimed, with the warning, and subscribes nobody again', async () => {
    await ref.person('subscriber', 'Erased Payer', '254711000020');
    await ref.person('subscriber', 'Erased Hashed', '254711000021');
    for (const phone of ['0711000020', '0711000021']) {
      expect((await t.as(admin, { method: 'POST', url: '/api/privacy/erase', payload: { phone, reason: 'Asked in person' } })).statusCode).toBe(200);
    }
    const plain = c2b({ BillRefNumber: 'D2', MSISDN: '254711000020', TransAmount: '100.00' });
    const hashed = c2b({ BillRefNumber: 'D2', MSISDN: sha256Hex('254711000021'), TransAmount: '100.00' });
    await confirm(t, plain);
    await confirm(t, hashed);
    for (const body of [plain, hashed]) {
      expect(await paymentByReceipt(t, body.TransID as string)).toMatchObject({ status: 'unclaimed', subscriberId: null, warning: ERASED_PAYER_WARNING });
    }
    expect(await subscriberByPhone('254711000020')).toBeUndefined();
    expect(await messagesTo('254711000020')).toEqual([]);
  });

  it('knows an erased payer by any phone the payment names, in one look-up', async () => {
    await ref.person('subscriber', 'Erased Elsewhere', '254711000022');
    expect((await t.as(admin, { method: 'POST', url: '/api/privacy/erase', payload: { phone: '0711000022', reason: 'Asked in person' } })).statusCode).toBe(200);
    const who = (over: Partial<Parameters<typeof paidByErasedPerson>[1]>): Parameters<typeof paidByErasedPerson>[1] => ({ senderPhone: null, msisdn: null, msisdnKind: 'plain', billRefNumber: null, ...over });
    // The erased phone as the sender, hashed by M-Pesa, or written in the account beside another sender.
    expect(await paidByErasedPerson(t.deps.db, who({ senderPhone: '254711000022' }))).toBe(true);
    expect(await paidByErasedPerson(t.deps.db, who({ msisdn: sha256Hex('254711000022').toUpperCase(), msisdnKind: 'hashed' }))).toBe(true);
    expect(await paidByErasedPerson(t.deps.db, who({ senderPhone: '254711000023', billRefNumber: '0711000022' }))).toBe(true);
    expect(await paidByErasedPerson(t.deps.db, who({ senderPhone: '254711000023', billRefNumber: 'D2' }))).toBe(false);
    expect(await paidByErasedPerson(t.deps.db, who({}))).toBe(false);
  });

  it("sends the receipt when an admin claims a hidden payer's payment to a subscriber", async () => {
    const subscriberId = await ref.person('subscriber', 'Claimed Later', '254711000006');
    const body = c2b({ BillRefNumber: 'D2', MSISDN: sha256Hex('254700000000'), TransAmount: '100.00' });
    await confirm(t, body);
    const payment = await paymentByReceipt(t, body.TransID as string);
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/mpesa-transactions/claim',
      payload: { transaction_id: payment!.id, subscriber_id: subscriberId },
    });
    expect(res.statusCode).toBe(200);
    expect((await messagesTo('254711000006')).map((m) => m.intent)).toEqual(['tips.receipt', 'tips.sms-tip']);
  });

  it('sends the receipt of a package paid by STK push', async () => {
    const subscriberId = await ref.person('subscriber', 'STK Payer', '254711000007');
    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'SKR7000007' });
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/payment-requests/store',
      payload: { subscriber_id: subscriberId, item: `package:${ref.d2Sms.id}`, phone: '0711000007' },
    });
    expect(res.statusCode).toBe(200);
    await fake.settled();
    const sent = await messagesTo('254711000007');
    expect(sent.map((m) => m.intent)).toEqual(['tips.receipt', 'tips.sms-tip']);
    expect(sent[0]!.body).toContain('SKR7000007');
  });

  it('answers a texted category code with the prices and an STK push for the cheapest SMS package', async () => {
    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'SKR8000008' });
    const res = await inbound({ from: '+254711000008', to: '22384', text: ' d2 ', date: '2026-11-23 10:00:00', id: 'ATin-code-1', linkId: '', networkCode: '63902' });
    expect(res.statusCode).toBe(200);
    await fake.settled();
    expect(fake.pushes.at(-1)).toMatchObject({ PartyA: '254711000008', Amount: 100, AccountReference: 'D2' });
    const subscriber = await subscriberByPhone('254711000008');
    expect(subscriber).toBeDefined();
    const requests = await t.deps.db.select().from(stkRequests).where(eq(stkRequests.subscriberId, subscriber!.id));
    expect(requests).toEqual([expect.objectContaining({ origin: 'sms', status: 'paid' })]);
    const sent = await messagesTo('254711000008');
    expect(sent[0]).toMatchObject({ intent: 'sms.keyword-reply', smsClass: 'transactional' });
    expect(sent[0]!.body).toContain('Daily 2 Odds tips: SMS 7 days KES 100.00');
    expect(sent.map((m) => m.intent)).toContain('tips.receipt');
    const inbox = await t.as(admin, { method: 'GET', url: '/api/sms/inbox?search=0711000008' });
    expect(inbox.json().messages).toMatchObject([
      { keyword: 'D2', action: 'D2 prices sent; M-Pesa payment request sent', subscriber_id: subscriber!.id },
    ]);
  });
});
