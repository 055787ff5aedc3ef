import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { formatKes } from '@betdesk/contract';
import { bets, bonuses, mpesaPayments, subscriptions } from '../../src/db/schema/index.ts';
import { pendingBonusCents } from '../../src/modules/bonuses/service.ts';
import { type TestApp } from '../helpers.ts';
import { ledgerOf, peopleWorld, type Reference, unclaimedPayment } from './fixtures.ts';

let t: TestApp;
let ref: Reference;
let admin: string;
let staff: string;

beforeAll(async () => {
  ({ t, ref, admin, staff } = await peopleWorld());
});
afterAll(() => t.close());

const unclaimed = (over: Record<string, unknown>) => unclaimedPayment(t, over);

const preview = (token: string, query: string) => t.as(token, { method: 'GET', url: `/api/mpesa-transactions/claim-preview?${query}` });

describe('claim preview: what a claim would buy, before it is made', () => {
  it("names the subscriber's package the amount equals, and keeps nothing", async () => {
    const subscriberId = await ref.person('subscriber', 'Preview Subscriber', '254722300001');
    const payment = await unclaimed({ BillRefNumber: 'D2', TransAmount: '100.00' });
    const res = await preview(admin, `transaction_id=${payment.id}&subscriber_id=${subscriberId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ buys: [`buy the tips package "Daily 2 Odds SMS weekly" (7 days, ${formatKes(100)})`] });

    const [after] = await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.id, payment.id));
    expect(after).toMatchObject({ status: 'unclaimed', subscriberId: null, clientId: null });
    expect(await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id))).toHaveLength(0);
    expect(await ledgerOf(t, { subscriberId })).toBe(0);
  });

  it("tells a client's payment pays unpaid bonuses first, then the plan the rest equals, then credit", async () => {
    const clientId = await ref.person('client', 'Preview Client', '254733300002');
    const [bet] = await t.deps.db
      .insert(bets)
      .values({ clientId, stakeCents: 50_000, description: 'Arsenal win', profitCents: 50_000, status: 'closed' })
      .returning({ id: bets.id });
    await t.deps.db.insert(bonuses).values({ betId: bet!.id, clientId, amountCents: 15_000, ratePercent: 30 });

    const exact = await unclaimed({ TransAmount: '1150.00' });
    const res = await preview(admin, `transaction_id=${exact.id}&client_id=${clientId}`);
    expect(res.json().buys).toEqual([`pay ${formatKes(150)} of unpaid bonuses`, `buy the Bet4Me plan "Weekly" (7 days, ${formatKes(1000)})`]);

    const odd = await unclaimed({ TransAmount: '200.00' });
    const credit = await preview(admin, `transaction_id=${odd.id}&client_id=${clientId}`);
    expect(credit.json().buys).toEqual([
      `pay ${formatKes(150)} of unpaid bonuses`,
      `leave ${formatKes(50)} as credit on the account balance (no plan or package costs exactly this)`,
    ]);
    expect(await pendingBonusCents(t.deps.db, clientId)).toBe(15_000);
  });

  it('answers 422 naming client_id without exactly one payee, 409 for a claimed payment, 403 to staff', async () => {
    const subscriberId = await ref.person('subscriber', 'Second Subscriber', '254722300003');
    const payment = await unclaimed({ TransAmount: '60.00' });
    const none = await preview(admin, `transaction_id=${payment.id}`);
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toHaveProperty('client_id');
    const unknown = await preview(admin, `transaction_id=${payment.id}&subscriber_id=999999`);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toHaveProperty('subscriber_id');

    const claimed = await t.as(admin, {
      method: 'POST',
      url: '/api/mpesa-transactions/claim',
      payload: { transaction_id: payment.id, subscriber_id: subscriberId },
    });
    expect(claimed.statusCode).toBe(200);
    expect((await preview(admin, `transaction_id=${payment.id}&subscriber_id=${subscriberId}`)).statusCode).toBe(409);
    expect((await preview(staff, `transaction_id=${payment.id}&subscriber_id=${subscriberId}`)).statusCode).toBe(403);
  });
});
