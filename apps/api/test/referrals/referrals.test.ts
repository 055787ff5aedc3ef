/**
 * Referrals and agents (decision 088): agents registered by admins, referral codes typed at a first
 * purchase like promo codes (the use is the referral's record), self-referral refused, the
 * referrer's free days once after the hold and none after a refund, an agent's month of
 * commissions and a clawback, and every lever off for a self-excluded person and an erased phone.
 * Lives in: apps/api/test/referrals/referrals.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { agentCommissions, mpesaPayments, promoCodes, promoCodeUses, referralRewards, refunds, smsMessages, subscriptions, users } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { accrueCommissions, rewardReferrals } from '../../src/modules/referrals/service.ts';
import { signInToPortal, type TestApp } from '../helpers.ts';
import { appWithFakeDaraja, c2b, confirm, declaredAdult, paymentByReceipt, SANDBOX_PASSKEY } from '../mpesa/fixtures.ts';
import { signedInStaff, tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: TipsReference;
let admin: string;
let staff: string;
let adminId: number;

beforeAll(async () => {
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  ref = await tipsReference(t.deps.db);
  ({ admin, staff } = await signedInStaff(t));
  adminId = (await t.deps.db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@tips.test')))[0]!.id;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const DAY = 86_400_000;
let receiptSeq = 0;
const cookies = new Map<string, string>();

async function portal(local: string): Promise<string> {
  const known = cookies.get(local);
  if (known) return known;
  await declaredAdult(t, `254${local.slice(1)}`);
  const cookie = await signInToPortal(t, local, `10.8.${local.slice(-2)}.${local.slice(-4, -2)}`);
  cookies.set(local, cookie);
  return cookie;
}
const post = (cookie: string, url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: { cookie } });

/** A portal purchase of the D2 web week (KES 400) by STK push, paid; answers its payment. */
async function buy(local: string, code?: string) {
  const cookie = await portal(local);
  receiptSeq += 1;
  const receipt = `SRF${String(receiptSeq).padStart(7, '0')}`;
  fake.outcomes.push({ resultCode: 0, callback: true, receipt });
  const res = await post(cookie, '/api/portal/purchase', { package_id: ref.d2WebWeek, ...(code ? { code } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  await fake.settled();
  return (await paymentByReceipt(t, receipt))!;
}

async function myCode(local: string): Promise<string> {
  const me = await t.app.inject({ method: 'GET', url: '/api/portal/me', headers: { cookie: await portal(local) } });
  return me.json().referral_code as string;
}

const useOf = async (paymentId: number) => (await t.deps.db.select().from(promoCodeUses).where(eq(promoCodeUses.paymentId, paymentId)))[0];
const refundDone = (paymentId: number, n: number) =>
  t.deps.db.insert(refunds).values({ paymentId, amountCents: 40_000, reason: 'policy', method: 'reversal', requestedBy: adminId, originatorConversationId: `referral-test-${n}`, status: 'done' });
const afterHold = () => new Date(Date.now() + 15 * DAY);
const thisMonth = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 7);

describe('agents', () => {
  it('an admin registers an agent with a referral code; bad input names the field; staff are refused', async () => {
    expect((await t.as(staff, { method: 'POST', url: '/api/agents', payload: { name: 'Otieno', phone: '0722100001' } })).statusCode).toBe(403);
    expect((await t.as(staff, { method: 'GET', url: '/api/agents' })).statusCode).toBe(403);
    const bad = await t.as(admin, { method: 'POST', url: '/api/agents', payload: { name: 'Otieno', phone: '12345' } });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['phone']);
    const made = await t.as(admin, { method: 'POST', url: '/api/agents', payload: { name: 'Otieno Radio', phone: '0722100001' } });
    expect(made.statusCode).toBe(200);
    expect(made.json().agent).toMatchObject({ name: 'Otieno Radio', phone: '254722100001', referral_code: expect.stringMatching(/^\d{6}$/), referrals: 0 });
    const twice = await t.as(admin, { method: 'POST', url: '/api/agents', payload: { name: 'Other', phone: '+254722100001' } });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.phone).toBeDefined();
    const list = await t.as(admin, { method: 'GET', url: '/api/agents?page=1&perPage=50' });
    expect(list.json()).toMatchObject({ total_records: 1, agents: [expect.objectContaining({ phone: '254722100001' })] });
    // A referral code is no promo code of the admin's list or report.
    expect((await t.as(admin, { method: 'GET', url: '/api/promotions/codes' })).json().total_records).toBe(0);
  });
});

describe('a subscriber refers a friend', () => {
  it('the friend buys at list price with the code; the use links the sale; the referrer gets free days once after the hold', async () => {
    await buy('0711200001');
    const code = await myCode('0711200001');
    expect(code).toMatch(/^\d{6}$/);
    expect(await myCode('0711200001')).toBe(code);

    const price = await post(await portal('0711200002'), '/api/portal/price', { package_id: ref.d2WebWeek, code });
    expect(price.json()).toEqual({ package_id: ref.d2WebWeek, code, list_price: 400, discount: 0, price: 400, days: null });
    const paid = await buy('0711200002', code);
    expect(fake.pushes.at(-1)).toMatchObject({ PartyA: '254711200002', Amount: 400 });
    const [sale] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, paid.id));
    expect(await useOf(paid.id)).toMatchObject({ status: 'used', channel: 'portal', priceCents: 40_000, discountCents: 0, subscriptionId: sale!.id });
    // A first purchase only: the friend's second one cannot carry a code.
    const again = await post(await portal('0711200002'), '/api/portal/price', { package_id: ref.d2WebWeek, code });
    expect(again.statusCode).toBe(422);

    // Before the hold ends, nothing.
    expect((await rewardReferrals(t.deps)).granted).toBe(0);
    const first = await rewardReferrals(t.deps, afterHold());
    expect(first.granted).toBe(1);
    const [reward] = await t.deps.db.select().from(referralRewards).where(eq(referralRewards.useId, (await useOf(paid.id))!.id));
    expect(reward).toMatchObject({ outcome: 'granted', days: 7 });
    const [free] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.id, reward!.subscriptionId!));
    expect(free).toMatchObject({ source: 'manual', amountCents: 0, durationDays: 7, packageId: ref.d2WebWeek });
    const told = await t.deps.db.select().from(smsMessages).where(and(eq(smsMessages.recipient, '254711200001'), eq(smsMessages.intent, 'referral.rewarded')));
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toContain('7 free days');
    // Exactly once.
    expect((await rewardReferrals(t.deps, afterHold())).granted).toBe(0);
    expect(await t.deps.db.select().from(referralRewards).where(eq(referralRewards.subscriberId, reward!.subscriberId))).toHaveLength(1);
  });

  it('a refunded first purchase gives the referrer nothing', async () => {
    const code = await myCode('0711200001');
    const paid = await buy('0711200003', code);
    await refundDone(paid.id, 1);
    expect((await rewardReferrals(t.deps, afterHold())).granted).toBe(0);
    const [reward] = await t.deps.db.select().from(referralRewards).where(eq(referralRewards.useId, (await useOf(paid.id))!.id));
    expect(reward).toMatchObject({ outcome: 'refunded', days: 0, subscriptionId: null });
  });

  it('a paybill payment of the list price to "D2-<code>" records the referral; a wrong code changes nothing', async () => {
    const code = await myCode('0711200001');
    await declaredAdult(t, '254711200004', '254711200005');
    const body = c2b({ BusinessShortCode: '174379', MSISDN: '254711200004', BillRefNumber: `d2-${code}`, TransAmount: '500.00', FirstName: 'PETER', LastName: 'OUMA' });
    expect((await confirm(t, body)).statusCode).toBe(200);
    const payment = (await paymentByReceipt(t, body.TransID as string))!;
    const [sale] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
    expect(sale).toMatchObject({ packageId: ref.d2SmsWeek, amountCents: 50_000 });
    expect(await useOf(payment.id)).toMatchObject({ status: 'used', channel: 'paybill', priceCents: 50_000, discountCents: 0, subscriptionId: sale!.id });

    const wrong = c2b({ BusinessShortCode: '174379', MSISDN: '254711200005', BillRefNumber: 'D2-999999', TransAmount: '500.00', FirstName: 'MARY', LastName: 'ATIENO' });
    expect((await confirm(t, wrong)).statusCode).toBe(200);
    const other = (await paymentByReceipt(t, wrong.TransID as string))!;
    expect(await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, other.id))).toHaveLength(1);
    expect(await useOf(other.id)).toBeUndefined();
  });

  it('refuses self-referral: the owner phone, and a phone that paid from the owner M-Pesa name', async () => {
    const code = await myCode('0711200001');
    const own = await post(await portal('0711200001'), '/api/portal/price', { package_id: ref.d2WebWeek, code });
    expect(own.statusCode).toBe(422);
    expect(own.json().errors.code[0]).toBe(`Referral code ${code} cannot be used from this number: it is the number or the M-Pesa name of its owner.`);
    const agentCode = (await t.as(admin, { method: 'GET', url: '/api/agents' })).json().agents[0].referral_code as string;
    expect((await post(await portal('0722100001'), '/api/portal/price', { package_id: ref.d2WebWeek, code: agentCode })).statusCode).toBe(422);

    for (const [phone, n] of [['254711200001', 1], ['254711200009', 2]] as const) {
      await t.deps.db.insert(mpesaPayments).values({ transId: `SNAME0000${n}`, source: 'c2b', raw: {}, status: 'unclaimed', amountCents: 10_000, senderName: 'JANE  WAMBUI', senderPhone: phone });
    }
    const sameName = await post(await portal('0711200009'), '/api/portal/price', { package_id: ref.d2WebWeek, code });
    expect(sameName.statusCode).toBe(422);
    expect(sameName.json().errors.code[0]).toContain('cannot be used from this number');
  });
});

describe("an agent's commissions", () => {
  it("a month of commissions on a referee's payments, and a clawback of a refunded one", async () => {
    const agent = (await t.as(admin, { method: 'GET', url: '/api/agents' })).json().agents[0] as { id: number; referral_code: string };
    const first = await buy('0711300001', agent.referral_code);
    const second = await buy('0711300001');
    await accrueCommissions(t.deps.db);
    const statement = await t.as(admin, { method: 'GET', url: `/api/agents/${agent.id}/statement?month=${thisMonth()}` });
    expect(statement.statusCode).toBe(200);
    const body = statement.json();
    expect(body.lines).toEqual([
      expect.objectContaining({ kind: 'commission', receipt: first.transId, payment: 400, percent: 10, amount: 40 }),
      expect.objectContaining({ kind: 'commission', receipt: second.transId, payment: 400, percent: 10, amount: 40 }),
    ]);
    expect(body).toMatchObject({ commissions: 80, clawbacks: 0, total: 80, agent: expect.objectContaining({ referrals: 1 }) });
    // Idempotent: read again, the same lines.
    expect((await t.as(admin, { method: 'GET', url: `/api/agents/${agent.id}/statement?month=${thisMonth()}` })).json().lines).toHaveLength(2);

    await refundDone(second.id, 2);
    const after = (await t.as(admin, { method: 'GET', url: `/api/agents/${agent.id}/statement?month=${thisMonth()}` })).json();
    expect(after.lines.at(-1)).toMatchObject({ kind: 'clawback', receipt: second.transId, amount: -40 });
    expect(after).toMatchObject({ commissions: 80, clawbacks: -40, total: 40 });
    const sum = after.lines.reduce((n: number, l: { amount: number }) => n + Math.round(l.amount * 100), 0);
    expect(sum).toBe(4_000);

    expect((await t.as(staff, { method: 'GET', url: `/api/agents/${agent.id}/statement?month=${thisMonth()}` })).statusCode).toBe(403);
    expect((await t.as(admin, { method: 'GET', url: `/api/agents/${agent.id}/statement?month=2026-13` })).json().errors.month).toBeDefined();
    expect((await t.as(admin, { method: 'GET', url: `/api/agents/999999/statement?month=${thisMonth()}` })).statusCode).toBe(404);
  });
});

describe('every lever is off for a self-excluded person and an erased phone', () => {
  it('no free days for a self-excluded referrer, no commission on a self-excluded referee, none for an erased referrer', async () => {
    const agent = (await t.as(admin, { method: 'GET', url: '/api/agents' })).json().agents[0] as { id: number; referral_code: string };
    // The referee buys, then excludes themselves: no commission on their payment.
    const excludedBuyer = await buy('0711400001', agent.referral_code);
    expect((await t.as(admin, { method: 'POST', url: '/api/exclusions', payload: { phone: '0711400001', period: '30' } })).statusCode).toBe(200);
    await accrueCommissions(t.deps.db);
    expect(await t.deps.db.select().from(agentCommissions).where(eq(agentCommissions.paymentId, excludedBuyer.id))).toHaveLength(0);

    // A referrer who excluded themselves: no code shown, no free days.
    await buy('0711400002');
    const code = await myCode('0711400002');
    const referred = await buy('0711400003', code);
    expect((await t.as(admin, { method: 'POST', url: '/api/exclusions', payload: { phone: '0711400002', period: '30' } })).statusCode).toBe(200);
    expect(await myCode('0711400002')).toBeNull();
    await rewardReferrals(t.deps, afterHold());
    expect((await t.deps.db.select().from(referralRewards).where(eq(referralRewards.useId, (await useOf(referred.id))!.id)))[0]).toMatchObject({ outcome: 'suppressed', subscriptionId: null });

    // An erased referrer: no free days.
    await buy('0711400004');
    const erasedCode = await myCode('0711400004');
    const referredByErased = await buy('0711400005', erasedCode);
    const erased = await t.as(admin, { method: 'POST', url: '/api/privacy/erase', payload: { phone: '0711400004', reason: 'Asked in person' } });
    expect(erased.statusCode, erased.body).toBe(200);
    await rewardReferrals(t.deps, afterHold());
    expect((await t.deps.db.select().from(referralRewards).where(eq(referralRewards.useId, (await useOf(referredByErased.id))!.id)))[0]).toMatchObject({ outcome: 'suppressed' });
  });
});

describe('the retention figures split by lever (decision 091)', () => {
  it("counts the agent's sales with the commission they cost, and the referred sales apart from promo codes", async () => {
    const today = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const res = await t.as(admin, { method: 'GET', url: `/api/reports/retention?from=${today}&to=${today}&group=day&group_by=lever` });
    expect(res.statusCode, res.body).toBe(200);
    const groups = res.json().groups as { key: string; lever_sales: { sales: number; income: number; discount: number; commission: number } }[];
    const of = (key: string) => groups.find((g) => g.key === key)?.lever_sales;
    const agent = (await t.as(admin, { method: 'GET', url: '/api/agents' })).json().agents[0] as { id: number };
    const statement = (await t.as(admin, { method: 'GET', url: `/api/agents/${agent.id}/statement?month=${thisMonth()}` })).json();
    // The agent's sales: those their code made (the commission test's first purchase, and the suppression
    // test's, which earned nothing) and those whose payment earned a commission (the second purchase), each
    // KES 400; what they cost is the statement's total, its clawback included.
    const uses = await t.deps.db
      .select({ subscription: promoCodeUses.subscriptionId, agent: promoCodes.referrerAgentId, subscriber: promoCodes.referrerSubscriberId })
      .from(promoCodeUses)
      .innerJoin(promoCodes, eq(promoCodes.id, promoCodeUses.codeId))
      .where(eq(promoCodeUses.status, 'used'));
    const commissioned = await t.deps.db
      .selectDistinct({ subscription: subscriptions.id })
      .from(agentCommissions)
      .innerJoin(subscriptions, eq(subscriptions.paymentId, agentCommissions.paymentId));
    const agentSales = new Set([...uses.filter((u) => u.agent !== null).map((u) => u.subscription), ...commissioned.map((c) => c.subscription)]);
    expect(agentSales.size).toBeGreaterThanOrEqual(2);
    expect(of('agent')).toEqual({ sales: agentSales.size, income: 400 * agentSales.size, discount: 0, commission: statement.total });
    // Referred by subscribers: the sales their codes made, none of them counted as a promo code's.
    const bySubscribers = uses.filter((u) => u.subscriber !== null).length;
    expect(bySubscribers).toBeGreaterThanOrEqual(2);
    expect(of('referral')).toMatchObject({ sales: bySubscribers, discount: 0, commission: 0 });
    expect(of('code')).toBeUndefined();
  });
});
