import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { clientAssignments, mpesaPayments, smsMessages, stkRequests, subscriptions } from '../../src/db/schema/index.ts';
import { runSubscriptionExpiry } from '../../src/modules/subscriptions/expiry.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { recheckPendingRequests } from '../../src/modules/mpesa/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { c2b, confirm, ledgerOf, paymentByReceipt, SANDBOX_PASSKEY, darajaWorld, closeDarajaWorld, type Reference } from './fixtures.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: Reference;
let admin: string;
let staff: string;
let staffId: number;
const DAY = 86_400_000;

beforeAll(async () => {
  ({ t, fake, ref, admin } = await darajaWorld({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  staffId = await t.addUser({ email: 'agent@betdesk.test' });
  staff = await t.tokenFor('agent@betdesk.test');
});
afterAll(() => closeDarajaWorld({ t, fake }));

const requestPayment = (token: string, payload: Record<string, unknown>) =>
  t.as(token, { method: 'POST', url: '/api/payment-requests/store', payload });

async function requestRow(id: number) {
  const [row] = await t.deps.db.select().from(stkRequests).where(eq(stkRequests.id, id));
  return row!;
}

describe('Request payment (STK push)', () => {
  it('lists what a subscriber can be asked to pay', async () => {
    const subscriberId = await ref.person('subscriber', 'Options Subscriber', '254722300001');
    const res = await t.as(staff, { method: 'GET', url: `/api/payment-requests/options?subscriber_id=${subscriberId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Options Subscriber', phone: '0722300001', configured: true });
    expect(res.json().items).toContainEqual(expect.objectContaining({ key: `package:${ref.d2Sms.id}`, amount: 100 }));
  });

  it('sends the push, shows it pending, and the callback activates the package once', async () => {
    const subscriberId = await ref.person('subscriber', 'STK Subscriber', '254722300002');
    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'SKA1000001' });
    const res = await requestPayment(staff, { subscriber_id: subscriberId, item: `package:${ref.d2Sms.id}`, phone: '0722300002' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ info: 'Payment request sent to the phone', request: { status: 'pending', amount: 100, phone: '0722300002' } });
    const push = fake.pushes.at(-1)!;
    expect(push).toMatchObject({ BusinessShortCode: '174379', Amount: 100, PartyA: '254722300002', AccountReference: 'D2' });
    expect(String(push.CallBackURL)).toBe('https://betdesk.example.com/api/hooks/stk/test-webhook-secret-0123');
    await fake.settled();

    const shown = await t.as(staff, { method: 'GET', url: `/api/payment-requests/show?request_id=${res.json().request.id}` });
    expect(shown.json().request).toMatchObject({ status: 'paid', transaction_reference: 'SKA1000001' });
    const payment = await paymentByReceipt(t, 'SKA1000001');
    expect(payment).toMatchObject({ source: 'stk', status: 'claimed', subscriberId, matchedBy: 'stk', amountCents: 10_000 });
    const subs = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment!.id));
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ source: 'stk', packageId: ref.d2Sms.id });
    expect(await ledgerOf(t, { subscriberId })).toBe(0);

    // The same receipt arriving by C2B as well counts once.
    await confirm(t, c2b({ TransID: 'SKA1000001', BillRefNumber: 'D2', MSISDN: sha256Hex('254722300002'), BusinessShortCode: '174379' }));
    const [count] = await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(mpesaPayments).where(eq(mpesaPayments.transId, 'SKA1000001'));
    expect(count!.n).toBe(1);
    expect(await ledgerOf(t, { subscriberId })).toBe(0);
  });

  it('records a push the payer cancelled (1032) and stores no payment', async () => {
    const subscriberId = await ref.person('subscriber', 'Cancelling Subscriber', '254722300003');
    fake.outcomes.push({ resultCode: 1032, callback: true });
    const res = await requestPayment(admin, { subscriber_id: subscriberId, item: `package:${ref.d2Sms.id}`, phone: '0722300003' });
    await fake.settled();
    const row = await requestRow(res.json().request.id);
    expect(row).toMatchObject({ status: 'cancelled', resultCode: '1032', paymentId: null, origin: 'staff' });
    expect(await ledgerOf(t, { subscriberId })).toBe(0);
  });

  it('re-checks a push whose callback never came with an STK query, and counts its C2B receipt once', async () => {
    const subscriberId = await ref.person('subscriber', 'Silent Subscriber', '254722300004');
    fake.outcomes.push({ resultCode: 0, callback: false });
    const res = await requestPayment(admin, { subscriber_id: subscriberId, item: `package:${ref.d2Sms.id}`, phone: '0722300004' });
    const id = res.json().request.id as number;
    expect(await recheckPendingRequests(t.deps)).toBe(0); // not timed out yet
    await t.deps.db.update(stkRequests).set({ requestedAt: new Date(Date.now() - 10 * 60_000) }).where(eq(stkRequests.id, id));
    expect(await recheckPendingRequests(t.deps)).toBe(1);
    expect(fake.queries).toContain((await requestRow(id)).checkoutRequestId);
    const row = await requestRow(id);
    expect(row.status).toBe('paid');
    const subs = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, row.paymentId!));
    expect(subs).toHaveLength(1);

    // The C2B confirmation brings the receipt: attached to the same payment, not counted again.
    await confirm(t, c2b({ TransID: 'SKQ2000002', TransAmount: '100.00', BillRefNumber: 'D2', MSISDN: sha256Hex('254722300004'), BusinessShortCode: '174379' }));
    const adopted = await paymentByReceipt(t, 'SKQ2000002');
    expect(adopted?.id).toBe(row.paymentId);
    expect(await ledgerOf(t, { subscriberId })).toBe(0);
    expect(await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, subscriberId))).toHaveLength(1);
  });

  it("asks a client for a plan; staff may only ask their own clients (others' are 404)", async () => {
    const clientId = await ref.person('client', 'Plan Client', '254733300005');
    const notMine = await requestPayment(staff, { client_id: clientId, item: `plan:${ref.weekly.id}`, phone: '0733300005' });
    expect(notMine.statusCode).toBe(404);
    await t.deps.db.insert(clientAssignments).values({ clientId, userId: staffId });
    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'SKP3000003' });
    const mine = await requestPayment(staff, { client_id: clientId, item: `plan:${ref.weekly.id}`, phone: '0733300005' });
    expect(mine.statusCode).toBe(200);
    await fake.settled();
    const payment = await paymentByReceipt(t, 'SKP3000003');
    const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment!.id));
    expect(sub).toMatchObject({ clientId, planId: ref.weekly.id, source: 'stk' });
    expect(await ledgerOf(t, { clientId })).toBe(0);
  });

  it('answers 422 naming the field for an unknown item or a bad phone', async () => {
    const subscriberId = await ref.person('subscriber', 'Bad Input Subscriber', '254722300006');
    const item = await requestPayment(admin, { subscriber_id: subscriberId, item: 'plan:99999', phone: '0722300006' });
    expect(item.statusCode).toBe(422);
    expect(item.json().errors).toHaveProperty('item');
    const phone = await requestPayment(admin, { subscriber_id: subscriberId, item: `package:${ref.d2Sms.id}`, phone: '12345' });
    expect(phone.statusCode).toBe(422);
    expect(phone.json().errors).toHaveProperty('phone');
  });

  it('reuses one OAuth token for every call', () => {
    expect(fake.tokens).toHaveLength(1);
  });
});

describe('expiry job', () => {
  it('marks expired subscriptions lapsed and reminds once the day before expiry', async () => {
    const subscriberId = await ref.person('subscriber', 'Expiring Subscriber', '254722300007');
    const now = Date.now();
    const base = { subscriberId, packageId: ref.d2Sms.id, betCategoryId: ref.d2.id, medium: 'sms' as const, durationDays: 7, amountCents: 10_000, source: 'manual' as const };
    const [old] = await t.deps.db
      .insert(subscriptions)
      .values({ ...base, startsAt: new Date(now - 8 * DAY), expiresAt: new Date(now - DAY) })
      .returning();
    const [soon] = await t.deps.db
      .insert(subscriptions)
      .values({ ...base, betCategoryId: ref.ov.id, startsAt: new Date(now - 6 * DAY), expiresAt: new Date(now + 12 * 3_600_000) })
      .returning();
    await runSubscriptionExpiry(t.deps.db);
    await runSubscriptionExpiry(t.deps.db);
    const [lapsed] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.id, old!.id));
    expect(lapsed!.lapsedAt).not.toBeNull();
    const reminders = await t.deps.db
      .select()
      .from(smsMessages)
      .where(eq(smsMessages.dedupeKey, `subscription.reminder:${soon!.id}`));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.recipient).toBe('254722300007');
    expect(reminders[0]!.body).toContain('Expiring Subscriber');
    expect(reminders[0]!.body).toContain('Daily 2 Odds SMS weekly');
  });
});

describe('without M-Pesa configured', () => {
  it('sends nothing and says so (503)', async () => {
    const bare = await createTestApp();
    try {
      await bare.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
      const token = await bare.tokenFor('boss@betdesk.test');
      const res = await bare.as(token, {
        method: 'POST',
        url: '/api/payment-requests/store',
        payload: { subscriber_id: 1, item: 'package:1', phone: '0722300008' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().info).toContain('not configured');
    } finally {
      await bare.close();
    }
  });
});
