/**
 * Agents' monthly payouts (decision 093): a closed month's commissions asked as one payout per
 * agent, approved by a second admin with their code (never the requester), sent by M-Pesa B2C to
 * the agent's phone, paid by M-Pesa's result with the statement SMS once; a failed payout and a
 * negative month (a clawback) carry to the next payout, and cents under a shilling carry on.
 * Lives in: apps/api/test/agent-payouts/agent-payouts.test.ts
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { agentCommissions, agentPayouts, auditLog, mpesaPayments, promoCodeUses, refunds, smsMessages } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { runPayoutSending } from '../../src/modules/agent-payouts/service.ts';
import { accrueCommissions } from '../../src/modules/referrals/service.ts';
import { ADMIN, signInToPortal, TEST_PASSWORD, type TestApp } from '../helpers.ts';
import { appWithFakeDaraja, declaredAdult, paymentByReceipt, SANDBOX_PASSKEY } from '../mpesa/fixtures.ts';
import { tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: TipsReference;
const delivered: { url: string; body: unknown }[] = [];

const certificate = readFileSync(new URL('../refunds/initiator-test.crt', import.meta.url), 'utf8');
const privateKeyPem = readFileSync(new URL('../refunds/initiator-test.key', import.meta.url), 'utf8');
const INITIATOR_PASSWORD = 'Safaricom-Initiator-1!';

// The clock (Date only; the database keeps its own, and sessions with it) is moved a month at a
// time so that a month closes, and a whole 30-second TOTP step before each authenticator code.
let clock = Date.now();
const setClock = (at: number) => {
  clock = at;
  vi.setSystemTime(clock);
};
async function nextCode(secret: string): Promise<string> {
  setClock(clock + 30_000);
  return generate({ secret, epoch: Math.floor(clock / 1000) });
}

const nairobiMonth = (at: number) => new Date(at + 3 * 3_600_000).toISOString().slice(0, 7);
const M0 = nairobiMonth(Date.now());
/** The 15th of the month `k` months after M0, 09:00 Nairobi. */
function intoMonth(k: number): string {
  const [y, m] = M0.split('-').map(Number) as [number, number];
  setClock(Date.UTC(y, m - 1 + k, 15, 6));
  return nairobiMonth(clock);
}

const people = { requester: '', approver: '', approverSecret: '', staff: '' };
/** Signs everyone in again (a month later their sessions have idled out); the approver with their code. */
async function signIn() {
  people.requester = await t.tokenFor('asker@payouts.test');
  people.staff = await t.tokenFor('staff@payouts.test');
  if (!people.approverSecret) {
    people.approver = await t.tokenFor('approver@payouts.test');
    return;
  }
  const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'approver@payouts.test', password: TEST_PASSWORD } });
  const verify = await t.app.inject({
    method: 'POST',
    url: '/api/auth/2fa/verify',
    payload: { challenge: login.json().challenge, code: await nextCode(people.approverSecret) },
  });
  expect(verify.statusCode, verify.body).toBe(200);
  people.approver = verify.json().token as string;
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  setClock(Date.now());
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  fake.callbackDelayMs = 0;
  const deliver = fake.deliver;
  fake.deliver = async (url, body) => {
    delivered.push({ url, body });
    await deliver(url, body);
  };
  ref = await tipsReference(t.deps.db);
  await t.addUser({ email: 'asker@payouts.test', categoryId: ADMIN });
  await t.addUser({ email: 'approver@payouts.test', categoryId: ADMIN });
  await t.addUser({ email: 'staff@payouts.test' });
  await signIn();
  const setup = await t.as(people.approver, { method: 'POST', url: '/api/auth/2fa/setup' });
  people.approverSecret = setup.json().secret as string;
  const enabled = await t.as(people.approver, { method: 'POST', url: '/api/auth/2fa/enable', payload: { code: await nextCode(people.approverSecret) } });
  expect(enabled.statusCode).toBe(200);
  fake.initiator = { privateKeyPem, password: INITIATOR_PASSWORD };
  const saved = await t.as(people.requester, { method: 'POST', url: '/api/refunds/initiator', payload: { name: 'betdesk-api', password: INITIATOR_PASSWORD, certificate } });
  expect(saved.statusCode).toBe(200);
});
afterAll(async () => {
  vi.useRealTimers();
  await t.close();
  await fake.close();
});

let receiptSeq = 0;
/** A portal purchase of the D2 web week (KES 400) by STK push, paid; answers its payment. */
async function buy(local: string, code?: string) {
  await declaredAdult(t, `254${local.slice(1)}`);
  const cookie = await signInToPortal(t, local, `10.9.${local.slice(-2)}.${local.slice(-4, -2)}`);
  receiptSeq += 1;
  const receipt = `SPY${String(receiptSeq).padStart(7, '0')}`;
  // The callback is held until the purchase has answered (its request stored), then sent: the payer
  // never answers before the push reached them, however busy the machine.
  fake.outcomes.push({ resultCode: 0, callback: true, hold: true, receipt });
  const res = await t.app.inject({ method: 'POST', url: '/api/portal/purchase', payload: { package_id: ref.d2WebWeek, ...(code ? { code } : {}) }, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  const checkout = [...fake.heldCallbacks.keys()].at(-1)!;
  await fake.releaseCallback(checkout);
  await fake.settled();
  return (await paymentByReceipt(t, receipt))!;
}

async function registerAgent(name: string, phone: string) {
  const made = await t.as(people.requester, { method: 'POST', url: '/api/agents', payload: { name, phone } });
  expect(made.statusCode, made.body).toBe(200);
  return made.json().agent as { id: number; referral_code: string; phone: string };
}

const make = (month: string, token = people.requester) => t.as(token, { method: 'POST', url: '/api/agents/payouts', payload: { month } });
const approve = async (id: number, token = people.approver) =>
  t.as(token, { method: 'POST', url: `/api/agents/payouts/${id}/approve`, payload: { code: await nextCode(people.approverSecret) } });
const payoutRow = async (id: number) => (await t.deps.db.select().from(agentPayouts).where(eq(agentPayouts.id, id)))[0]!;
const statementsTo = (phone: string) => t.deps.db.select().from(smsMessages).where(and(eq(smsMessages.recipient, phone), eq(smsMessages.intent, 'agent.payout-paid')));
const auditOf = async (id: number) =>
  (await t.deps.db.select().from(auditLog).where(and(eq(auditLog.entity, 'agent_payout'), eq(auditLog.entityId, String(id)))).orderBy(auditLog.id)).map((a) => a.action);

let otieno: Awaited<ReturnType<typeof registerAgent>>;
let wanjiru: Awaited<ReturnType<typeof registerAgent>>;
let otienoSecondPayment: Awaited<ReturnType<typeof buy>>;
type Payout = { id: number; agent_id: number; amount: number; commissions: number; carried: number; status: string };
const of = (payouts: Payout[], agentId: number) => payouts.find((p) => p.agent_id === agentId)!;

describe("a month of an agent's commissions, paid through two admins", () => {
  it('asks one payout per agent for a closed month, once; staff are refused; an open month is refused', async () => {
    otieno = await registerAgent('Otieno Radio', '0722500001');
    wanjiru = await registerAgent('Wanjiru Shop', '0722500002');
    await buy('0711500001', otieno.referral_code);
    otienoSecondPayment = await buy('0711500001');
    await buy('0711500002', wanjiru.referral_code);
    await accrueCommissions(t.deps.db);

    intoMonth(1);
    await signIn();
    expect((await make(M0, people.staff)).statusCode).toBe(403);
    expect((await t.as(people.staff, { method: 'GET', url: '/api/agents/payouts' })).statusCode).toBe(403);
    const open = await make(nairobiMonth(clock));
    expect(open.statusCode).toBe(422);
    expect(Object.keys(open.json().errors)).toEqual(['month']);
    expect((await make('2026-13')).json().errors.month).toBeDefined();

    const made = await make(M0);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ created: 2, already: 0, carried: 0 });
    const payouts = made.json().payouts as Payout[];
    expect(of(payouts, otieno.id)).toMatchObject({ amount: 80, commissions: 80, carried: 0, status: 'awaiting_approval', phone: '254722500001' });
    expect(of(payouts, wanjiru.id)).toMatchObject({ amount: 40, commissions: 40, carried: 0, status: 'awaiting_approval' });

    const again = await make(M0);
    expect(again.json()).toMatchObject({ created: 0, already: 2 });
    expect(again.json().info).toMatch(/^Nothing new/);
    expect(await t.deps.db.select().from(agentPayouts)).toHaveLength(2);
    const list = await t.as(people.requester, { method: 'GET', url: '/api/agents/payouts?page=1&perPage=50&status=awaiting_approval' });
    expect(list.json().total_records, list.body).toBe(2);
  });

  it('refuses the requester and staff as approvers; a second admin approves; B2C pays the agent; the statement SMS once', async () => {
    const payouts = (await t.as(people.requester, { method: 'GET', url: '/api/agents/payouts' })).json().payouts as Payout[];
    const toOtieno = of(payouts, otieno.id);
    const toWanjiru = of(payouts, wanjiru.id);

    const own = await approve(toOtieno.id, people.requester);
    expect(own.statusCode, own.body).toBe(403);
    expect(own.json().info).toBe('You asked for this payout: another admin must approve it');
    expect((await approve(toOtieno.id, people.staff)).statusCode).toBe(403);
    expect((await payoutRow(toOtieno.id)).status).toBe('awaiting_approval');
    const wrong = await t.as(people.approver, { method: 'POST', url: `/api/agents/payouts/${toOtieno.id}/approve`, payload: { code: '000000' } });
    expect(wrong.statusCode).toBe(422);

    // Otieno's is paid; Wanjiru's fails for want of money in the utility account.
    fake.refundOutcomes.push({ resultCode: 0, callback: 'result', receipt: 'PAY0000001' }, { resultCode: 1, callback: 'result' });
    const approved = await approve(toOtieno.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().payout.status).toBe('sending');
    expect((await approve(toOtieno.id)).statusCode).toBe(409);
    expect((await approve(toWanjiru.id)).statusCode).toBe(200);

    expect(await runPayoutSending(t.deps)).toMatchObject({ sent: 2 });
    await fake.settled();
    const sent = fake.refundRequests.slice(-2).map((r) => r.body);
    expect(sent[0]).toMatchObject({ CommandID: 'BusinessPayment', PartyB: '254722500001', Amount: 80 });
    expect(String(sent[0]!.ResultURL)).toContain('/api/hooks/mpesa/payouts/b2c/result/');
    expect(sent[1]).toMatchObject({ PartyB: '254722500002', Amount: 40 });

    expect(await payoutRow(toOtieno.id)).toMatchObject({ status: 'paid', mpesaReceipt: 'PAY0000001', amountCents: 8_000 });
    expect(await payoutRow(toWanjiru.id)).toMatchObject({ status: 'failed', resultCode: '1', resultDesc: 'The balance is insufficient for the transaction.' });
    const told = await statementsTo('254722500001');
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toBe(`Commission for ${M0}: KES 80.00 sent to your M-Pesa (receipt PAY0000001). Commissions KES 80.00, carried KES 0.00. Betdesk Tips`);
    expect(await statementsTo('254722500002')).toHaveLength(0);

    // Daraja repeats its result: nothing happens twice.
    const result = delivered.find((d) => d.url.includes('/payouts/b2c/result/') && JSON.stringify(d.body).includes('PAY0000001'))!;
    await fake.deliver(result.url, result.body);
    expect(await statementsTo('254722500001')).toHaveLength(1);
    expect(await auditOf(toOtieno.id)).toEqual(['agent-payout.request', 'agent-payout.approve', 'agent-payout.paid']);
    expect(await auditOf(toWanjiru.id)).toEqual(['agent-payout.request', 'agent-payout.approve', 'agent-payout.failed']);
  });
});

describe('clawbacks and what carries to the next payout', () => {
  it("a refunded referee's clawback makes the month negative, carried; a failed payout is paid with the next month, its time-out checked", async () => {
    // Otieno's referee's second payment is refunded after it was paid out: clawed back this month.
    const [admin] = await t.deps.db.select({ id: agentPayouts.requestedBy }).from(agentPayouts).limit(1);
    await t.deps.db.insert(refunds).values({
      paymentId: otienoSecondPayment.id, amountCents: 40_000, reason: 'policy', method: 'reversal', requestedBy: admin!.id, originatorConversationId: 'payout-test-refund-1', status: 'done',
    });
    const M1 = nairobiMonth(clock);
    await accrueCommissions(t.deps.db);
    const clawback = await t.deps.db.select().from(agentCommissions).where(and(eq(agentCommissions.paymentId, otienoSecondPayment.id), eq(agentCommissions.kind, 'clawback')));
    expect(clawback).toMatchObject([{ month: M1, amountCents: -4_000 }]);

    intoMonth(2);
    await signIn();
    const made = await make(M1);
    expect(made.statusCode, made.body).toBe(200);
    // Otieno's month is KES -40: nothing to pay, it carries. Wanjiru's failed KES 40 is hers again.
    expect(made.json(), made.body).toMatchObject({ created: 1, already: 0, carried: 1 });
    const toWanjiru = of(made.json().payouts as Payout[], wanjiru.id);
    expect(toWanjiru).toMatchObject({ amount: 40, commissions: 0, carried: 40 });
    expect((made.json().payouts as Payout[]).some((p) => p.agent_id === otieno.id)).toBe(false);

    // M-Pesa's queue times out: unknown, then a Transaction Status query settles it, once. The query is
    // the next run's, or this run's own when the time-out reached the app before the run looked for
    // unknown payouts (the embedded database serves requests between statements, decision 099).
    fake.refundOutcomes.push({ resultCode: 0, callback: 'timeout', receipt: 'PAY0000002' });
    const queriesBefore = fake.statusQueries.length;
    expect((await approve(toWanjiru.id)).statusCode).toBe(200);
    await runPayoutSending(t.deps);
    await fake.settled();
    const afterTimeout = (await payoutRow(toWanjiru.id)).status;
    expect(['unknown', 'paid']).toContain(afterTimeout);
    if (afterTimeout === 'unknown') expect(await runPayoutSending(t.deps)).toMatchObject({ queried: 1 });
    await fake.settled();
    // Only an unknown payout is asked about: one query, so it was unknown, and asked once.
    expect(fake.statusQueries.length - queriesBefore).toBe(1);
    expect(String(fake.statusQueries.at(-1)!.ResultURL)).toContain('/api/hooks/mpesa/payouts/status/result/');
    expect(await payoutRow(toWanjiru.id)).toMatchObject({ status: 'paid', mpesaReceipt: 'PAY0000002' });
    expect(await statementsTo('254722500002')).toHaveLength(1);
  });

  it("the next month pays its commissions less what was carried, in whole shillings; the cents carry on", async () => {
    const M2 = nairobiMonth(clock);
    // A referee payment of KES 1005 this month earns Otieno KES 100.50.
    const [use] = await t.deps.db.select().from(promoCodeUses).where(eq(promoCodeUses.paymentId, (await t.deps.db.select().from(agentCommissions).where(eq(agentCommissions.agentId, otieno.id)))[0]!.paymentId));
    const [payment] = await t.deps.db.insert(mpesaPayments).values({ transId: 'SPY9000001', source: 'c2b', raw: {}, status: 'claimed', amountCents: 100_500, senderPhone: '254711500001' }).returning();
    await t.deps.db.insert(agentCommissions).values({ agentId: otieno.id, useId: use!.id, paymentId: payment!.id, kind: 'commission', month: M2, paymentCents: 100_500, percent: 10, amountCents: 10_050 });

    intoMonth(3);
    await signIn();
    const made = await make(M2);
    expect(made.json()).toMatchObject({ created: 1 });
    const toOtieno = of(made.json().payouts as Payout[], otieno.id);
    expect(toOtieno).toMatchObject({ commissions: 100.5, carried: -40, amount: 60 });
    const row = await payoutRow(toOtieno.id);
    // Every cent once: 100.50 - 40.00 = 60.50, of which 60 leave now and 0.50 waits for the next payout.
    expect(row.commissionsCents + row.carriedCents - row.amountCents).toBe(50);

    fake.refundOutcomes.push({ resultCode: 0, callback: 'result', receipt: 'PAY0000003' });
    const third = await approve(toOtieno.id);
    expect(third.statusCode, third.body).toBe(200);
    await runPayoutSending(t.deps);
    await fake.settled();
    expect(fake.refundRequests.at(-1)!.body).toMatchObject({ PartyB: '254722500001', Amount: 60 });
    const told = await statementsTo('254722500001');
    expect(told).toHaveLength(2);
    expect(told.map((m) => m.body)).toContain(`Commission for ${M2}: KES 60.00 sent to your M-Pesa (receipt PAY0000003). Commissions KES 100.50, carried KES -40.00. Betdesk Tips`);
  });
});

describe('two admins at once', () => {
  it("asking a month's payouts five times at once makes it once; approving one four times at once sends it once", async () => {
    const M3 = nairobiMonth(clock);
    const [use] = await t.deps.db.select().from(promoCodeUses).limit(1);
    for (const [agent, transId] of [[otieno, 'SPY9000002'], [wanjiru, 'SPY9000003']] as const) {
      const [payment] = await t.deps.db.insert(mpesaPayments).values({ transId, source: 'c2b', raw: {}, status: 'claimed', amountCents: 50_000, senderPhone: '254711500009' }).returning();
      await t.deps.db.insert(agentCommissions).values({ agentId: agent.id, useId: use!.id, paymentId: payment!.id, kind: 'commission', month: M3, paymentCents: 50_000, percent: 10, amountCents: 5_000 });
    }
    intoMonth(4);
    await signIn();
    const answers = await Promise.all(Array.from({ length: 5 }, () => make(M3)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    // Wanjiru's KES 50 is asked once, by one of the five. Otieno carries: the hand-made payment of the
    // test before bought no sale, so its commission was clawed back (KES -100.50) in this month.
    expect(answers.reduce((n, a) => n + (a.json().created as number), 0)).toBe(1);
    expect(answers.every((a) => a.json().created + a.json().already === 1 && a.json().carried === 1)).toBe(true);
    const asked = await t.deps.db.select().from(agentPayouts).where(eq(agentPayouts.month, M3));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ agentId: wanjiru.id, commissionsCents: 5_000, carriedCents: 0, amountCents: 5_000 });

    const toWanjiru = asked.find((p) => p.agentId === wanjiru.id)!;
    const code = await nextCode(people.approverSecret);
    const before = fake.refundRequests.length;
    fake.refundOutcomes.push({ resultCode: 0, callback: 'result', receipt: 'PAY0000004' });
    const approvals = await Promise.all(
      Array.from({ length: 4 }, () => t.as(people.approver, { method: 'POST', url: `/api/agents/payouts/${toWanjiru.id}/approve`, payload: { code } })),
    );
    expect(approvals.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(approvals.every((a) => a.statusCode === 200 || a.statusCode === 409 || a.statusCode === 422)).toBe(true);
    await runPayoutSending(t.deps);
    await fake.settled();
    expect(fake.refundRequests.length - before).toBe(1);
    expect(await payoutRow(toWanjiru.id)).toMatchObject({ status: 'paid', mpesaReceipt: 'PAY0000004', amountCents: 5_000 });
    expect(await auditOf(toWanjiru.id)).toEqual(['agent-payout.request', 'agent-payout.approve', 'agent-payout.paid']);
  });
});
