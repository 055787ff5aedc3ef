/**
 * The agents' report (decision 094) on a hand-made history, and this month's commission on the
 * agents' list. Two agents, Achieng (three referees) and Baraka (none). Achieng's referees:
 * - Rose: first purchase with the code on 5 October 2026 (KES 400 after KES 50 off), then KES 77.77
 *   at 23:50 on 31 October (Nairobi: October, not November; bought again within 30 days) and
 *   KES 333.33 at 00:10 on 1 November;
 * - Sam: first purchase on 10 November (KES 250), then KES 100 on 20 November (again within 30
 *   days), refunded after its commission was written (so its clawback is written today);
 * - Tom: first purchase on 2 May 2026 (KES 200), then KES 150 on 15 November, past the six months
 *   of commission (income, no commission) and past 90 days (not counted as bought again).
 * Someone with no code pays KES 500 in November: none of it is an agent's.
 * Lives in: apps/api/test/referrals/agents-report.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { agentCommissions, mpesaPayments, promoCodes, promoCodeUses, refunds, subscriptions, users } from '../../src/db/schema/index.ts';
import { accrueCommissions } from '../../src/modules/referrals/service.ts';
import type { TestApp } from '../helpers.ts';
import { peopleWorld, type Reference } from '../mpesa/fixtures.ts';
import { nairobi } from '../reports/retention-history.ts';

let t: TestApp;
let ref: Reference;
let admin: string;
let staff: string;
let achieng: { id: number; referral_code: string };
let baraka: { id: number };
let samTopUp: number;

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });
const thisMonth = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 7);
const today = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);

let receipt = 0;
/** A payment received at `at` (Nairobi wall clock) that bought a week of Daily 2 Odds by SMS. */
async function paidWeek(subscriberId: number, at: string, cents: number): Promise<{ paymentId: number; subscriptionId: number }> {
  receipt += 1;
  const when = nairobi(at);
  const [p] = await t.deps.db
    .insert(mpesaPayments)
    .values({ transId: `SAG${String(receipt).padStart(7, '0')}`, source: 'c2b', amountCents: cents, raw: {}, status: 'claimed', subscriberId, transTime: when, receivedAt: when })
    .returning({ id: mpesaPayments.id });
  const [s] = await t.deps.db
    .insert(subscriptions)
    .values({
      subscriberId,
      betCategoryId: ref.d2.id,
      packageId: ref.d2Sms.id,
      medium: 'sms',
      durationDays: 7,
      amountCents: cents,
      createdAt: when,
      startsAt: when,
      expiresAt: new Date(when.getTime() + 7 * 86_400_000),
      source: 'mpesa',
      paymentId: p!.id,
    })
    .returning({ id: subscriptions.id });
  return { paymentId: p!.id, subscriptionId: s!.id };
}

/** A first purchase with the agent's referral code: the sale and the code's use. */
async function referred(phone: string, name: string, at: string, cents: number, discountCents = 0): Promise<number> {
  const subscriberId = await ref.person('subscriber', name, phone);
  const sale = await paidWeek(subscriberId, at, cents);
  const [code] = await t.deps.db.select({ id: promoCodes.id }).from(promoCodes).where(eq(promoCodes.referrerAgentId, achieng.id));
  await t.deps.db.insert(promoCodeUses).values({
    codeId: code!.id,
    phone,
    phoneKey: phone,
    packageId: ref.d2Sms.id,
    channel: 'paybill',
    listPriceCents: cents + discountCents,
    discountCents,
    priceCents: cents,
    status: 'used',
    paymentId: sale.paymentId,
    subscriptionId: sale.subscriptionId,
    usedAt: nairobi(at),
  });
  return subscriberId;
}

beforeAll(async () => {
  ({ t, ref, admin, staff } = await peopleWorld());
  const made = await t.as(admin, { method: 'POST', url: '/api/agents', payload: { name: 'Achieng Radio', phone: '0733100001' } });
  expect(made.statusCode, made.body).toBe(200);
  achieng = made.json().agent;
  baraka = (await t.as(admin, { method: 'POST', url: '/api/agents', payload: { name: 'Baraka Stage', phone: '0733100002' } })).json().agent;

  const rose = await referred('254733200001', 'Rose R', '2026-10-05T09:00:00', 40_000, 5_000);
  await paidWeek(rose, '2026-10-31T23:50:00', 7_777);
  await paidWeek(rose, '2026-11-01T00:10:00', 33_333);
  const sam = await referred('254733200002', 'Sam S', '2026-11-10T12:00:00', 25_000);
  samTopUp = (await paidWeek(sam, '2026-11-20T18:00:00', 10_000)).paymentId;
  const tom = await referred('254733200003', 'Tom T', '2026-05-02T08:00:00', 20_000);
  await paidWeek(tom, '2026-11-15T10:00:00', 15_000);
  await paidWeek(await ref.person('subscriber', 'Nobody N', '254733200009'), '2026-11-12T10:00:00', 50_000);

  // The ledger as the hourly job writes it, then Sam's top-up refunded: its clawback comes with the next run.
  await accrueCommissions(t.deps.db);
  const [boss] = await t.deps.db.select({ id: users.id }).from(users).where(eq(users.email, 'boss@betdesk.test'));
  await t.deps.db
    .insert(refunds)
    .values({ paymentId: samTopUp, amountCents: 10_000, reason: 'policy', method: 'reversal', requestedBy: boss!.id, originatorConversationId: 'agents-report-1', status: 'done' });
});
afterAll(() => t.close());

const zero = { referees: 0, discount: 0, renewed_30: 0, renewed_90: 0, payments: 0, income: 0, commission: 0, clawback: 0, net: 0 };

describe('GET /api/reports/promotions/agents', () => {
  it("November: new referees, every referee payment received in November, the commission of those payments; the clawback waits for the day it is written", async () => {
    const res = await get(admin, '/api/reports/promotions/agents?from=2026-11-01&to=2026-11-30');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
      rows: [
        // Sam is new; Rose's KES 333.33, Sam's KES 250 and KES 100, Tom's KES 150: KES 833.33.
        // Commission: 10 % of the first three, each rounded down to the cent (33.33 + 25 + 10); none on Tom's.
        {
          agent_id: achieng.id,
          name: 'Achieng Radio',
          referral_code: achieng.referral_code,
          referees: 1,
          discount: 0,
          renewed_30: 1,
          renewed_90: 1,
          payments: 4,
          income: 833.33,
          commission: 68.33,
          clawback: 0,
          net: 68.33,
        },
        { agent_id: baraka.id, name: 'Baraka Stage', referral_code: expect.stringMatching(/^\d{6}$/), ...zero },
      ],
    });
  });

  it('October: the 23:50 payment of 31 October is October’s, by the Nairobi day', async () => {
    const rows = (await get(admin, '/api/reports/promotions/agents?from=2026-10-01&to=2026-10-31')).json().rows;
    expect(rows[0]).toMatchObject({ agent_id: achieng.id, referees: 1, discount: 50, renewed_30: 1, renewed_90: 1, payments: 2, income: 477.77, commission: 47.77, clawback: 0, net: 47.77 });
  });

  it('today: the clawback of the refunded top-up, by the day it was written', async () => {
    const rows = (await get(admin, `/api/reports/promotions/agents?from=${today()}&to=${today()}`)).json().rows;
    expect(rows[0]).toEqual({ agent_id: achieng.id, name: 'Achieng Radio', referral_code: achieng.referral_code, ...zero, clawback: -10, net: -10 });
    // Written once, however often the report is read.
    await get(admin, `/api/reports/promotions/agents?from=${today()}&to=${today()}`);
    expect(await t.deps.db.select().from(agentCommissions).where(eq(agentCommissions.paymentId, samTopUp))).toHaveLength(2);
  });

  it('the whole history adds up: every ledger line is in exactly one range', async () => {
    const rows = (await get(admin, '/api/reports/promotions/agents?from=2026-05-01&to=2026-11-30')).json().rows;
    // Seven payments: KES 200 + 400 + 77.77 + 333.33 + 250 + 100 + 150; commission on all but Tom's second:
    // 20 + 40 + 7.77 + 33.33 + 25 + 10 = 136.10.
    // Rose and Sam bought again within 30 days; Tom only after 197 days.
    expect(rows[0]).toMatchObject({ referees: 3, discount: 50, renewed_30: 2, renewed_90: 2, payments: 7, income: 1_511.1, commission: 136.1, clawback: 0, net: 136.1 });
    const todays = (await get(admin, `/api/reports/promotions/agents?from=${today()}&to=${today()}`)).json().rows[0];
    const lines = await t.deps.db.select({ cents: agentCommissions.amountCents }).from(agentCommissions).where(eq(agentCommissions.agentId, achieng.id));
    expect(lines.reduce((n, l) => n + l.cents, 0)).toBe(13_610 + Math.round(todays.net * 100));
    expect(lines.reduce((n, l) => n + l.cents, 0)).toBe(12_610);
  });

  it('the CSV has the same rows', async () => {
    const res = await get(admin, '/api/reports/promotions/agents/export?from=2026-11-01&to=2026-11-30');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('report-agents-2026-11-01-to-2026-11-30');
    expect(res.body.trim().split('\r\n')).toEqual([
      'Agent,Referral code,New referees,Discount (KES),Bought again within 30 days,Bought again within 90 days,Payments,Income (KES),Commission (KES),Clawback (KES),Net (KES)',
      `Achieng Radio,${achieng.referral_code},1,0,1,1,4,833.33,68.33,0,68.33`,
      expect.stringMatching(/^Baraka Stage,\d{6},0,0,0,0,0,0,0,0,0$/),
    ]);
  });

  it('refuses staff, and names a bad range field', async () => {
    expect((await get(staff, '/api/reports/promotions/agents?from=2026-11-01&to=2026-11-30')).statusCode).toBe(403);
    expect((await get(staff, '/api/reports/promotions/agents/export?from=2026-11-01&to=2026-11-30')).statusCode).toBe(403);
    const bad = await get(admin, '/api/reports/promotions/agents?from=2026-11-31');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.from).toBeDefined();
  });
});

describe("GET /api/agents: this month's commission", () => {
  it("is each agent's net of this month, the total of its statement of this month", async () => {
    const list = (await get(admin, '/api/agents?page=1&perPage=50')).json().agents as { id: number; month_commission: number }[];
    expect(list.map((a) => [a.id, a.month_commission])).toEqual([
      [baraka.id, 0],
      [achieng.id, -10],
    ]);
    const statement = (await get(admin, `/api/agents/${achieng.id}/statement?month=${thisMonth()}`)).json();
    expect(statement.total).toBe(-10);
    expect(statement.agent.month_commission).toBe(-10);
    const november = (await get(admin, `/api/agents/${achieng.id}/statement?month=2026-11`)).json();
    expect(november).toMatchObject({ commissions: 68.33, clawbacks: 0, total: 68.33 });
    expect(november.lines.map((l: { amount: number }) => l.amount)).toEqual([33.33, 25, 10]);
  });
});
