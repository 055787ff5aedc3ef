import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { smsMessages, stkRequests, tipsSubscribers, ussdPurchases } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { jobHandlers } from '../../src/job-handlers.ts';
import { sendQueuedUssdPurchases } from '../../src/modules/ussd/service.ts';
import type { TestApp } from '../helpers.ts';
import { appWithFakeDaraja, SANDBOX_PASSKEY, seedPeople } from '../mpesa/fixtures.ts';
import { newSession, screen } from './fixtures.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: Awaited<ReturnType<typeof seedPeople>>;
const nudged: string[] = [];

beforeAll(async () => {
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  t.deps.jobs = { nudge: async (queue) => void nudged.push(queue), stop: async () => {} };
  ref = await seedPeople(t);
});
afterAll(async () => {
  await t.close();
  await fake.close().catch(() => {}); // the last test closes it early
});

const purchaseOf = async (sessionId: string) =>
  t.deps.db.select().from(ussdPurchases).where(eq(ussdPurchases.sessionId, sessionId));

async function intentsTo(phone: string) {
  const sent = await t.deps.db.select({ intent: smsMessages.intent }).from(smsMessages).where(eq(smsMessages.recipient, phone)).orderBy(asc(smsMessages.id));
  return sent.map((m) => m.intent);
}

describe('Buying tips on the USSD menu with M-Pesa configured', () => {
  it('ends the session first, queues the purchase for the job, and the job pushes the STK that activates the package', async () => {
    const phone = '254711000201';
    const sessionId = newSession();
    expect(await screen(t, '1*1', `+${phone}`)).toBe(
      'CON Daily 2 Odds: choose\n1 SMS 7 days KES 100\n2 SMS 30 days KES 350\n3 Web 7 days KES 100\n0 Back',
    );
    nudged.length = 0;
    const pushesBefore = fake.pushes.length;
    const end = await screen(t, '1*1*1*1*1', `+${phone}`, sessionId);
    expect(end).toBe('END Enter your M-Pesa PIN when asked to pay KES 100 for Daily 2 Odds SMS.');
    // Africa's Talking may post the same step again: still one purchase.
    expect(await screen(t, '1*1*1*1*1', `+${phone}`, sessionId)).toBe(end);
    expect(await purchaseOf(sessionId)).toMatchObject([{ status: 'queued', phone, packageId: ref.d2Sms.id, stkRequestId: null }]);
    expect(nudged).toContain('ussd-purchases');
    expect(fake.pushes).toHaveLength(pushesBefore); // nothing left the server during the session

    // The queue's registered handler does the work (pg-boss runs it on the nudge, or its cron).
    const job = jobHandlers(t.deps).find((h) => h.queue === 'ussd-purchases');
    expect(job?.cron).toBe('* * * * *');
    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'USD2000201' });
    await job!.run(new AbortController().signal);
    await fake.settled();
    expect(fake.pushes.at(-1)).toMatchObject({ PartyA: phone, PhoneNumber: phone, Amount: 100, AccountReference: 'D2' });
    const [purchase] = await purchaseOf(sessionId);
    expect(purchase).toMatchObject({ status: 'requested' });
    const [request] = await t.deps.db.select().from(stkRequests).where(eq(stkRequests.id, purchase!.stkRequestId!));
    expect(request).toMatchObject({ status: 'paid', packageId: ref.d2Sms.id, phone, origin: 'ussd' });
    const [subscriber] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
    expect(subscriber).toMatchObject({ name: '0711000201' });
    expect(await screen(t, '2', `+${phone}`)).toMatch(/^END My subscriptions:\nDaily 2 Odds SMS to \d{1,2} \w{3} \d{4}$/);
    expect(await intentsTo(phone)).toContain('tips.receipt');

    // The job never pushes a purchase twice.
    expect(await sendQueuedUssdPurchases(t.deps)).toBe(0);
    expect(fake.pushes.filter((p) => p.PartyA === phone)).toHaveLength(1);
  });

  it('drops a purchase that waited too long for the job', async () => {
    const sessionId = newSession();
    await screen(t, '1*1*2*1*1', '+254711000202', sessionId);
    await t.deps.db.execute(sql`update ussd_purchases set created_at = now() - interval '10 minutes' where session_id = ${sessionId}`);
    const pushesBefore = fake.pushes.length;
    expect(await sendQueuedUssdPurchases(t.deps)).toBe(0);
    expect(fake.pushes).toHaveLength(pushesBefore);
    expect(await purchaseOf(sessionId)).toMatchObject([{ status: 'expired' }]);
  });

  it('texts the paybill instructions when M-Pesa cannot be reached', async () => {
    const phone = '254711000203';
    const sessionId = newSession();
    await screen(t, '1*1*3*1*1', `+${phone}`, sessionId);
    await fake.close();
    expect(await sendQueuedUssdPurchases(t.deps)).toBe(0);
    const [purchase] = await purchaseOf(sessionId);
    expect(purchase).toMatchObject({ status: 'failed' });
    expect(purchase!.reason).toMatch(/M-Pesa/);
    const [text] = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.recipient, phone));
    expect(text).toMatchObject({ intent: 'ussd.pay-instructions' });
    expect(text!.body).toContain('business number 174379, account number D2, amount KES 100');
  });
});
