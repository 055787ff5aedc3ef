import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { auditLog, ledgerEntries, refunds, smsMessages, subscriptions, taxInvoices } from '../../src/db/schema/index.ts';
import { rows } from '../../src/db/rows.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { runMoneyCheck } from '../../src/modules/reconciliation/service.ts';
import { runRefundSending } from '../../src/modules/refunds/service.ts';
import { ADMIN, type TestApp } from '../helpers.ts';
import { appWithFakeDaraja, c2b, confirm, ledgerOf, paymentByReceipt, receipt, seedPeople, SECRET } from '../mpesa/fixtures.ts';

/** Issue 29: refunds through M-Pesa, asked by one admin, approved by another with a TOTP code. */
let t: TestApp;
let fake: FakeDaraja;
let ref: Awaited<ReturnType<typeof seedPeople>>;
let requester: string;
let approver: { token: string; secret: string };
let thirdAdmin: { token: string; secret: string };
let staff: string;

const certificate = readFileSync(new URL('./initiator-test.crt', import.meta.url), 'utf8');
const privateKeyPem = readFileSync(new URL('./initiator-test.key', import.meta.url), 'utf8');
const INITIATOR_PASSWORD = 'Safaricom-Initiator-1!';

// Each approval takes a new 30-second TOTP step: the clock (Date only; the database keeps its own)
// moves a whole step before each code.
let clock = Date.now();
async function nextCode(secret: string): Promise<string> {
  clock += 30_000;
  vi.setSystemTime(clock);
  return generate({ secret, epoch: Math.floor(clock / 1000) });
}

async function enrolAdmin(email: string) {
  await t.addUser({ email, categoryId: ADMIN });
  const token = await t.tokenFor(email);
  const setup = await t.as(token, { method: 'POST', url: '/api/auth/2fa/setup' });
  const { secret } = setup.json();
  const enable = await t.as(token, { method: 'POST', url: '/api/auth/2fa/enable', payload: { code: await nextCode(secret) } });
  expect(enable.statusCode).toBe(200);
  return { token, secret: secret as string };
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(clock);
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '600984' }));
  fake.callbackDelayMs = 0;
  ref = await seedPeople(t);
  await t.addUser({ email: 'asker@betdesk.test', categoryId: ADMIN });
  await t.addUser({ email: 'agent@betdesk.test' });
  requester = await t.tokenFor('asker@betdesk.test');
  staff = await t.tokenFor('agent@betdesk.test');
  approver = await enrolAdmin('approver@betdesk.test');
  thirdAdmin = await enrolAdmin('third@betdesk.test');
  fake.initiator = { privateKeyPem, password: INITIATOR_PASSWORD };
  const saved = await t.as(requester, {
    method: 'POST',
    url: '/api/refunds/initiator',
    payload: { name: 'betdesk-api', password: INITIATOR_PASSWORD, certificate },
  });
  expect(saved.statusCode).toBe(200);
});
afterAll(async () => {
  vi.useRealTimers();
  await t.close();
  await fake.close();
});

let phoneSeq = 0;
/** A subscriber's 100 KES payment for D2 that bought the weekly SMS package; its id and receipt. */
async function paidPackage() {
  phoneSeq += 1;
  const phone = `2547224${String(phoneSeq).padStart(5, '0')}`;
  const subscriberId = await ref.person('subscriber', `Payer ${phoneSeq}`, phone);
  const trans = receipt();
  expect((await confirm(t, c2b({ TransID: trans, TransAmount: '100.00', BillRefNumber: 'D2', MSISDN: phone }))).statusCode).toBe(200);
  const payment = (await paymentByReceipt(t, trans))!;
  expect(payment.status).toBe('claimed');
  return { id: payment.id, trans, phone, subscriberId };
}

/** A payment to an account nobody has: it waits unclaimed. */
async function unclaimedPayment(msisdn = `2547330${String(++phoneSeq).padStart(5, '0')}`, amount = '250.00') {
  const trans = receipt();
  await confirm(t, c2b({ TransID: trans, TransAmount: amount, BillRefNumber: 'NOBODY9', MSISDN: msisdn }));
  const payment = (await paymentByReceipt(t, trans))!;
  expect(payment.status).toBe('unclaimed');
  return { id: payment.id, trans };
}

const ask = (payload: Record<string, unknown>, token = requester) => t.as(token, { method: 'POST', url: '/api/refunds', payload });
const approve = (id: number, code: string, token = approver.token) =>
  t.as(token, { method: 'POST', url: `/api/refunds/${id}/approve`, payload: { code } });

async function refundRow(id: number) {
  const [row] = await t.deps.db.select().from(refunds).where(eq(refunds.id, id));
  return row!;
}

async function askAndApprove(payload: Record<string, unknown>) {
  const asked = await ask(payload);
  expect(asked.statusCode).toBe(200);
  const id = asked.json().refund.id as number;
  const approved = await approve(id, await nextCode(approver.secret));
  expect(approved.statusCode).toBe(200);
  return id;
}

/** The tax invoice of the sale a payment made, and the credit notes issued against it. */
async function taxOf(paymentId: number) {
  const all = await t.deps.db.select().from(taxInvoices).where(eq(taxInvoices.paymentId, paymentId));
  return { invoices: all.filter((i) => i.kind === 'invoice'), creditNotes: all.filter((i) => i.kind === 'credit_note') };
}

async function moneyCheckHolds() {
  const check = await runMoneyCheck(t.deps.db);
  expect(check.failures).toEqual([]);
  return check;
}

describe('asking and approving', () => {
  it('lets staff neither see nor ask for refunds', async () => {
    const payment = await unclaimedPayment();
    expect((await t.as(staff, { method: 'GET', url: '/api/refunds' })).statusCode).toBe(403);
    expect((await ask({ payment_id: payment.id, amount: 10, reason: 'paid_twice', method: 'b2c' }, staff)).statusCode).toBe(403);
    expect(await t.deps.db.select().from(refunds).where(eq(refunds.paymentId, payment.id))).toHaveLength(0);
  });

  it('refuses the requester as approver, and a wrong code approves nothing', async () => {
    const payment = await unclaimedPayment();
    const asked = await ask({ payment_id: payment.id, amount: 250, reason: 'wrong_account', method: 'reversal' });
    expect(asked.statusCode).toBe(200);
    expect(asked.json().refund).toMatchObject({ status: 'awaiting_approval', amount: 250, method: 'reversal', trans_id: payment.trans });
    const id = asked.json().refund.id;

    expect((await approve(id, '123456', requester)).statusCode).toBe(403);
    const wrong = await approve(id, '000000');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toBeDefined();
    expect((await refundRow(id)).status).toBe('awaiting_approval');
    await runRefundSending(t.deps);
    expect(fake.refundRequests.filter((r) => String(r.body.TransactionID) === payment.trans)).toHaveLength(0);

    const cancelled = await t.as(approver.token, { method: 'POST', url: `/api/refunds/${id}/cancel` });
    expect(cancelled.json().refund.status).toBe('cancelled');
  });

  it('refuses more than what is left, a masked payer by B2C, part of a payment by Reversal', async () => {
    const payment = await unclaimedPayment();
    const tooMuch = await ask({ payment_id: payment.id, amount: 250.01, reason: 'policy', method: 'b2c' });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.amount).toEqual(['At most KES 250.00 of this payment is left to refund']);
    expect((await ask({ payment_id: payment.id, amount: 100, reason: 'policy', method: 'reversal' })).json().errors.method).toBeDefined();
    expect((await ask({ payment_id: 99_999_999, amount: 1, reason: 'policy', method: 'reversal' })).json().errors.payment_id).toBeDefined();
    expect((await ask({ payment_id: payment.id, amount: 1, reason: 'other', method: 'b2c' })).json().errors.note).toBeDefined();

    const masked = await unclaimedPayment('2547 ***** 126');
    const b2c = await ask({ payment_id: masked.id, amount: 10, reason: 'policy', method: 'b2c' });
    expect(b2c.statusCode).toBe(422);
    expect(b2c.json().errors.method).toEqual(["M-Pesa hid this payer's phone number: only a Reversal can return this payment"]);
    expect(await t.deps.db.select().from(refunds).where(eq(refunds.paymentId, masked.id))).toHaveLength(0);
  });

  it('refuses a refund bigger than what is left when two admins ask at once', async () => {
    const payment = await unclaimedPayment();
    const answers = await Promise.all([
      ask({ payment_id: payment.id, amount: 150, reason: 'paid_twice', method: 'b2c' }),
      ask({ payment_id: payment.id, amount: 150, reason: 'paid_twice', method: 'b2c' }, approver.token),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
    const [sum] = await t.deps.db.select({ cents: sql<string>`sum(${refunds.amountCents})` }).from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(Number(sum!.cents)).toBe(15_000);
  });

  it('shows the form what is left of a payment, how it can go back and what it bought', async () => {
    const paid = await paidPackage();
    const preview = (paymentId: number, token = requester) =>
      t.as(token, { method: 'GET', url: `/api/refunds/preview?payment_id=${paymentId}` });
    const first = await preview(paid.id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      payment_id: paid.id,
      trans_id: paid.trans,
      amount: 100,
      refunded_amount: 0,
      left: 100,
      payer_phone: paid.phone,
      reversal: true,
      b2c: true,
      bought: { amount: 100 },
    });
    expect(first.json().bought.what).toMatch(/^Tips package ".+", \d+ days?$/);

    // Part of it asked: what is left shrinks, and only B2C can return the rest.
    expect((await ask({ payment_id: paid.id, amount: 30, reason: 'wrong_amount', method: 'b2c', effect: 'shorten' })).statusCode).toBe(200);
    expect((await preview(paid.id)).json()).toMatchObject({ left: 70, reversal: false, b2c: true });

    // A masked payer: Reversal only, and nothing bought.
    const masked = await unclaimedPayment('2547 ***** 127');
    expect((await preview(masked.id)).json()).toMatchObject({ left: 250, payer_phone: null, reversal: true, b2c: false, bought: null });

    expect((await preview(paid.id, staff)).statusCode).toBe(403);
    expect((await preview(99_999_999)).json().errors.payment_id).toBeDefined();
  });

  it('pages the list newest first, or oldest first when asked', async () => {
    const newest = await t.as(requester, { method: 'GET', url: '/api/refunds' });
    const oldest = await t.as(requester, { method: 'GET', url: '/api/refunds?sort=created_at&dir=asc' });
    expect(oldest.statusCode, oldest.body).toBe(200);
    const ids = (res: typeof newest) => (res.json().refunds as { id: number }[]).map((r) => r.id);
    expect(ids(newest)).toEqual([...ids(newest)].sort((a, b) => b - a));
    expect(ids(oldest)).toEqual([...ids(oldest)].sort((a, b) => a - b));
    expect(ids(oldest).length).toBeGreaterThan(1);
  });

  it('marks every step in the audit log as sensitive', async () => {
    const res = await t.as(requester, { method: 'GET', url: '/api/audit?sensitive=1&entity=refund' });
    expect(res.statusCode).toBe(200);
    const actions = (res.json().entries as { action: string }[]).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['refund.request', 'refund.cancel']));
    const [initiator] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'refund.initiator-save'));
    expect(JSON.stringify(initiator!.after)).not.toContain(INITIATOR_PASSWORD);
  });
});

describe('sending and the answer', () => {
  it('pays part of a package back by B2C, shortens the subscription, tells the payer, and the money check holds', async () => {
    const payment = await paidPackage();
    const [before] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
    await moneyCheckHolds();
    fake.refundOutcomes.push({ resultCode: 0, callback: 'result', receipt: 'RFB2C00001', utilityBalanceKes: 1_500 });
    const id = await askAndApprove({ payment_id: payment.id, amount: 40, reason: 'wrong_amount', method: 'b2c', effect: 'shorten' });
    expect((await refundRow(id)).status).toBe('sending');

    await runRefundSending(t.deps);
    await fake.settled();
    const sent = fake.refundRequests.at(-1)!;
    expect(sent.path).toBe('/mpesa/b2c/v3/paymentrequest');
    expect(sent.body).toMatchObject({ CommandID: 'BusinessPayment', Amount: 40, PartyA: '600984', PartyB: payment.phone, InitiatorName: 'betdesk-api' });
    expect(sent.body.ResultURL).toBe(`https://betdesk.example.com/api/hooks/mpesa/b2c/result/${SECRET}`);

    const done = await refundRow(id);
    expect(done).toMatchObject({ status: 'done', mpesaReceipt: 'RFB2C00001' });
    expect((await paymentByReceipt(t, payment.trans))!.refundedCents).toBe(4_000);
    const [after] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.id, before!.id));
    expect(after!.amountCents).toBe(6_000);
    expect(after!.expiresAt.getTime()).toBeLessThan(before!.expiresAt.getTime());
    expect(await ledgerOf(t, { subscriberId: payment.subscriberId })).toBe(0);
    const sms = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.intent, 'refund.sent'));
    expect(sms.some((m) => m.body.includes('KES 40.00') && m.body.includes('RFB2C00001'))).toBe(true);
    // The sale's tax invoice gets a credit note for the 40 returned, against its number.
    const tax = await taxOf(payment.id);
    expect(tax.invoices).toHaveLength(1);
    expect(tax.creditNotes.map((c) => [c.amountCents, c.originalId, c.cause])).toEqual([[4_000, tax.invoices[0]!.id, 'shortened']]);

    const list = await t.as(requester, { method: 'GET', url: '/api/refunds?status=done' });
    expect(list.json().refunds[0]).toMatchObject({ id, status: 'done', mpesa_receipt: 'RFB2C00001', approved_by: 'approver' });
    expect(list.json().utility_balance).toEqual(expect.objectContaining({ amount: 1_500, low: true }));
    const csv = await t.as(requester, { method: 'GET', url: '/api/refunds/export?status=done' });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('RFB2C00001');
    const shown = await t.as(requester, { method: 'GET', url: `/api/mpesa-transactions/search?search=${payment.trans}` });
    expect(shown.json().transactions[0]).toMatchObject({ transaction_reference: payment.trans, refunded_amount: 40 });
    await moneyCheckHolds();
  });

  it('sends one M-Pesa request when approve is clicked twice at once', async () => {
    const payment = await unclaimedPayment();
    const asked = await ask({ payment_id: payment.id, amount: 250, reason: 'wrong_account', method: 'reversal' });
    const id = asked.json().refund.id;
    const code = await nextCode(approver.secret);
    const answers = await Promise.all([approve(id, code), approve(id, code)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    await Promise.all([runRefundSending(t.deps), runRefundSending(t.deps)]);
    await fake.settled();
    const requests = fake.refundRequests.filter((r) => r.body.TransactionID === payment.trans);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body).toMatchObject({ CommandID: 'TransactionReversal', RecieverIdentifierType: '11', Amount: 250 });
    expect((await refundRow(id)).status).toBe('done');
    expect((await paymentByReceipt(t, payment.trans))!.refundedCents).toBe(25_000);
    await moneyCheckHolds();
  });

  it('never resends after the worker died having sent; the status query settles it', async () => {
    const payment = await unclaimedPayment();
    fake.refundOutcomes.push({ resultCode: 0, callback: 'none', receipt: 'RFLOST0001' });
    const id = await askAndApprove({ payment_id: payment.id, amount: 100, reason: 'policy', method: 'b2c' });
    await runRefundSending(t.deps);
    // The worker was killed between M-Pesa's acknowledgement and recording it.
    await t.deps.db.update(refunds).set({ conversationId: null }).where(eq(refunds.id, id));
    await runRefundSending(t.deps);
    const mine = () => fake.refundRequests.filter((r) => r.body.OriginatorConversationID === sent.originatorConversationId);
    const sent = await refundRow(id);
    expect(mine()).toHaveLength(1);

    const during = await moneyCheckHolds();
    expect(during.unconfirmed_refunds.some((line) => line.startsWith(`refund ${id} `))).toBe(true);

    // The wait for a result passes: the refund's end is unknown, and M-Pesa is asked, not paid again.
    await t.deps.db.update(refunds).set({ sentAt: sql`now() - interval '1 hour'` }).where(eq(refunds.id, id));
    await runRefundSending(t.deps);
    await fake.settled();
    expect(mine()).toHaveLength(1);
    expect(fake.statusQueries.some((s) => s.OriginalConversationID === sent.originatorConversationId)).toBe(true);
    expect(await refundRow(id)).toMatchObject({ status: 'done', mpesaReceipt: 'RFLOST0001' });
    const after = await moneyCheckHolds();
    expect(after.unconfirmed_refunds).toEqual([]);
  });

  it("resolves a queue time-out by Transaction Status, never by sending again", async () => {
    const payment = await unclaimedPayment();
    fake.refundOutcomes.push({ resultCode: 0, callback: 'timeout', receipt: 'RFTIME0001' });
    const id = await askAndApprove({ payment_id: payment.id, amount: 250, reason: 'wrong_account', method: 'reversal' });
    await runRefundSending(t.deps);
    await fake.settled();
    expect((await refundRow(id)).status).toBe('unknown');
    await runRefundSending(t.deps);
    await fake.settled();
    expect(fake.refundRequests.filter((r) => r.body.TransactionID === payment.trans)).toHaveLength(1);
    expect(await refundRow(id)).toMatchObject({ status: 'done', mpesaReceipt: 'RFTIME0001' });
    await moneyCheckHolds();
  });

  it('completes the refund once when the result arrives 20 times at once', async () => {
    const payment = await paidPackage();
    const captured: { url: string; body: unknown }[] = [];
    const deliver = fake.deliver;
    fake.deliver = async (url, body) => {
      captured.push({ url, body });
    };
    const id = await askAndApprove({ payment_id: payment.id, amount: 100, reason: 'paid_twice', method: 'reversal', effect: 'cancel' });
    await runRefundSending(t.deps);
    await fake.settled();
    fake.deliver = deliver;
    const result = captured.at(-1)!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.app.inject({ method: 'POST', url: new URL(result.url).pathname, payload: result.body as object })),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect((await refundRow(id)).status).toBe('done');
    expect((await paymentByReceipt(t, payment.trans))!.refundedCents).toBe(10_000);
    const refundEntries = await t.deps.db.select().from(ledgerEntries).where(sql`${ledgerEntries.paymentId} = ${payment.id} and ${ledgerEntries.kind} = 'refund'`);
    expect(refundEntries).toHaveLength(1);
    const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, payment.subscriberId));
    expect(sub!.reversedAt).not.toBeNull();
    expect(await ledgerOf(t, { subscriberId: payment.subscriberId })).toBe(0);
    // One credit note for the whole sale, however often the result came.
    expect((await taxOf(payment.id)).creditNotes.map((c) => c.amountCents)).toEqual([10_000]);
    // A refunded payment stays where it is.
    const unclaim = await t.as(requester, { method: 'POST', url: '/api/mpesa-transactions/unclaim', payload: { transaction_id: payment.id } });
    expect(unclaim.statusCode).toBe(409);
    await moneyCheckHolds();
  });

  it('leaves the payment and what it bought untouched when the reversal fails', async () => {
    const payment = await paidPackage();
    fake.refundOutcomes.push({ resultCode: 1, callback: 'result' });
    const id = await askAndApprove({ payment_id: payment.id, amount: 100, reason: 'policy', method: 'reversal', effect: 'cancel' });
    await runRefundSending(t.deps);
    await fake.settled();
    expect(await refundRow(id)).toMatchObject({ status: 'failed', resultDesc: 'The balance is insufficient for the transaction.' });
    expect((await paymentByReceipt(t, payment.trans))!.refundedCents).toBe(0);
    const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
    expect(sub!.reversedAt).toBeNull();
    expect(await ledgerOf(t, { subscriberId: payment.subscriberId })).toBe(0);
    await moneyCheckHolds();
  });

  it("fails with M-Pesa's words when the initiator's credential is wrong", async () => {
    const payment = await unclaimedPayment();
    fake.initiator = { privateKeyPem, password: 'another-password' };
    const id = await askAndApprove({ payment_id: payment.id, amount: 50, reason: 'policy', method: 'b2c' });
    await runRefundSending(t.deps);
    await fake.settled();
    fake.initiator = { privateKeyPem, password: INITIATOR_PASSWORD };
    expect(await refundRow(id)).toMatchObject({ status: 'failed', resultDesc: 'The initiator information is invalid.' });
  });

  it("needs a further admin's approval past the day's limit", async () => {
    const limit = await t.as(requester, { method: 'POST', url: '/api/settings/update', payload: { key: 'refund_daily_limit_kes', value: 100 } });
    expect(limit.statusCode).toBe(200);
    const payment = await unclaimedPayment(undefined, '900.00');
    const asked = await ask({ payment_id: payment.id, amount: 900, reason: 'wrong_account', method: 'reversal' });
    const id = asked.json().refund.id;
    const first = await approve(id, await nextCode(approver.secret));
    expect(first.json().refund.status).toBe('awaiting_second_approval');
    await runRefundSending(t.deps);
    expect(fake.refundRequests.filter((r) => r.body.TransactionID === payment.trans)).toHaveLength(0);
    expect((await approve(id, await nextCode(approver.secret))).statusCode).toBe(403);
    const second = await approve(id, await nextCode(thirdAdmin.secret), thirdAdmin.token);
    expect(second.json().refund.status).toBe('sending');
  });

  it("shows the day's done refunds as the income report's own line", async () => {
    const [today] = await rows<{ day: string }>(t.deps.db, sql`select (now() at time zone 'Africa/Nairobi')::date::text as day`);
    const [done] = await t.deps.db
      .select({ cents: sql<string>`coalesce(sum(${refunds.amountCents}), 0)` })
      .from(refunds)
      .where(eq(refunds.status, 'done'));
    expect(Number(done!.cents)).toBeGreaterThan(0);
    const report = await t.as(requester, { method: 'GET', url: `/api/reports/income?from=${today!.day}&to=${today!.day}` });
    expect(report.statusCode).toBe(200);
    const total = report.json().total;
    expect(total.refunded).toBe(Number(done!.cents) / 100);
    expect(total.net).toBeCloseTo(total.total - total.refunded, 2);
  });
});
