import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { erasedPhones, paymentRecoveries, smsMessages, stkRequests } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { jobHandlers } from '../../src/job-handlers.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { requestPackagePayment } from '../../src/modules/mpesa/service.ts';
import { reminderTime, runRecovery } from '../../src/modules/recovery/service.ts';
import type { TestApp } from '../helpers.ts';
import { SANDBOX_PASSKEY, darajaWorld, closeDarajaWorld, type Reference } from '../mpesa/fixtures.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: Reference;
let admin: string;
let phoneNo = 254711000300;

beforeAll(async () => {
  ({ t, fake, ref, admin } = await darajaWorld({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
});
afterAll(() => closeDarajaWorld({ t, fake }));

/** A subscriber whose STK push for the D2 SMS week ended with `code`, `ago` minutes ago. */
async function failedRequest(code: number, ago: number) {
  const phone = String((phoneNo += 1));
  const subscriberId = await ref.person('subscriber', `Payer ${phone}`, phone);
  fake.outcomes.push({ resultCode: code, callback: true });
  const id = await requestPackagePayment(t.deps, { subscriberId, phone, packageId: ref.d2Sms.id, requestId: null, origin: 'ussd' });
  await fake.settled();
  await t.deps.db.execute(
    sql`update stk_requests set requested_at = now() - make_interval(mins => ${ago}), settled_at = now() - make_interval(mins => ${ago}) where id = ${id}`,
  );
  return { id: id!, phone, subscriberId };
}

async function pay(who: { phone: string; subscriberId: number }) {
  fake.outcomes.push({ resultCode: 0, callback: true });
  await requestPackagePayment(t.deps, { subscriberId: who.subscriberId, phone: who.phone, packageId: ref.d2Sms.id, requestId: null, origin: 'portal' });
  await fake.settled();
}

const recoveryOf = async (stkRequestId: number) =>
  (await t.deps.db.select().from(paymentRecoveries).where(eq(paymentRecoveries.stkRequestId, stkRequestId)))[0];
const remindersTo = async (phone: string) =>
  t.deps.db.select().from(smsMessages).where(sql`${smsMessages.recipient} = ${phone} and ${smsMessages.intent} = 'payment.recovery-reminder'`);
const pushesTo = (phone: string) => fake.pushes.filter((p) => p.PartyA === phone).length;

describe('recovering failed payment requests', () => {
  it('tries a request the phone did not answer (1037) once, after the delay, never again', async () => {
    const f = await failedRequest(1037, 5);
    await runRecovery(t.deps);
    expect(await recoveryOf(f.id)).toMatchObject({ kind: 'retry', status: 'pending' }); // 10 minutes not passed
    expect(pushesTo(f.phone)).toBe(1);

    await t.deps.db.execute(sql`update payment_recoveries set due_at = now() - interval '1 minute' where stk_request_id = ${f.id}`);
    fake.outcomes.push({ resultCode: 1037, callback: true }); // the retry is not answered either
    await runRecovery(t.deps);
    await fake.settled();
    const done = await recoveryOf(f.id);
    expect(done).toMatchObject({ status: 'done' });
    expect(pushesTo(f.phone)).toBe(2);
    const [retry] = await t.deps.db.select().from(stkRequests).where(eq(stkRequests.id, done!.retryStkRequestId!));
    expect(retry).toMatchObject({ status: 'failed', resultCode: '1037', packageId: ref.d2Sms.id, origin: 'ussd' }); // the retry keeps where the purchase was asked

    // However often the job runs, neither the request nor its failed retry is tried again.
    await t.deps.db.execute(sql`update stk_requests set settled_at = now() - interval '1 hour' where id = ${retry!.id}`);
    await runRecovery(t.deps);
    await runRecovery(t.deps);
    expect(pushesTo(f.phone)).toBe(2);
    expect(await recoveryOf(retry!.id)).toBeUndefined();
  });

  it('reminds a payer who had too little money (1) once, at the set hour of the next day, as a transactional SMS', async () => {
    const fresh = await failedRequest(1, 0);
    await runRecovery(t.deps);
    const pending = await recoveryOf(fresh.id);
    expect(pending).toMatchObject({ kind: 'remind', status: 'pending' });
    const [failed] = await t.deps.db.select().from(stkRequests).where(eq(stkRequests.id, fresh.id));
    expect(pending!.dueAt.toISOString()).toBe(reminderTime(failed!.settledAt!, 9).toISOString());
    expect(await remindersTo(fresh.phone)).toHaveLength(0);

    const f = await failedRequest(1032, 36 * 60); // cancelled by the payer a day and a half ago: due
    await runRecovery(t.deps);
    await runRecovery(t.deps);
    const sent = await remindersTo(f.phone);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ smsClass: 'transactional' });
    expect(sent[0]!.body).toContain('KES 100');
    expect(sent[0]!.body).toContain('Daily 2 Odds SMS weekly');
    // A reminder to buy is promotional: it ends with the responsible-gambling lines (decision 061).
    expect(sent[0]!.body).toMatch(/ 18\+\. Gambling is addictive\. Play responsibly\.$/);
    expect(pushesTo(f.phone)).toBe(1); // a reminder, not a push
  });

  it('the reminder hour is the set hour of the next Nairobi day', () => {
    // 23:30 in Nairobi on 5 March (20:30 UTC): 09:00 on 6 March in Nairobi (06:00 UTC).
    expect(reminderTime(new Date('2026-03-05T20:30:00Z'), 9).toISOString()).toBe('2026-03-06T06:00:00.000Z');
    // 00:30 in Nairobi on 6 March (21:30 UTC on the 5th): 09:00 on 7 March.
    expect(reminderTime(new Date('2026-03-05T21:30:00Z'), 9).toISOString()).toBe('2026-03-07T06:00:00.000Z');
  });

  it('never retries nor reminds a wrong PIN (2001) or an expired request (1019)', async () => {
    const pin = await failedRequest(2001, 36 * 60);
    const expired = await failedRequest(1019, 36 * 60);
    await runRecovery(t.deps);
    expect(await recoveryOf(pin.id)).toBeUndefined();
    expect(await recoveryOf(expired.id)).toBeUndefined();
    expect(pushesTo(pin.phone) + pushesTo(expired.phone)).toBe(2);
    expect(await remindersTo(pin.phone)).toHaveLength(0);
  });

  it('cancels both a pending retry and a pending reminder when the subscriber pays meanwhile', async () => {
    const retry = await failedRequest(1001, 5);
    const remind = await failedRequest(1, 5);
    await runRecovery(t.deps); // both found, neither due
    await pay(retry);
    await pay(remind);
    await t.deps.db.execute(sql`update payment_recoveries set due_at = now() - interval '1 minute' where stk_request_id in (${retry.id}, ${remind.id})`);
    await runRecovery(t.deps);
    expect(await recoveryOf(retry.id)).toMatchObject({ status: 'cancelled' });
    expect(await recoveryOf(remind.id)).toMatchObject({ status: 'cancelled' });
    expect(pushesTo(retry.phone)).toBe(2); // the failed one and the payment: no retry
    expect(await remindersTo(remind.phone)).toHaveLength(0);
  });

  it('sends nothing to an erased phone', async () => {
    const f = await failedRequest(1032, 36 * 60);
    await t.deps.db.insert(erasedPhones).values({ phoneHash: sha256Hex(f.phone), reason: 'request' });
    await runRecovery(t.deps);
    expect(await recoveryOf(f.id)).toMatchObject({ status: 'skipped' });
    expect(await remindersTo(f.phone)).toHaveLength(0);
  });

  it('counts the amount a retry recovered, and the failures by class (GET /api/reports/recovery)', async () => {
    const before = (await t.as(admin, { method: 'GET', url: '/api/reports/recovery' })).json();
    await failedRequest(1037, 11);
    fake.outcomes.push({ resultCode: 0, callback: true }); // the retry is paid
    const job = jobHandlers(t.deps).find((h) => h.queue === 'payment-recovery');
    await job!.run(new AbortController().signal);
    await fake.settled();
    const res = await t.as(admin, { method: 'GET', url: '/api/reports/recovery' });
    expect(res.statusCode).toBe(200);
    const after = res.json();
    expect(after.failed_by_class.retry - before.failed_by_class.retry).toBe(1);
    expect(after.retries - before.retries).toBe(1);
    expect(after.recovered_amount - before.recovered_amount).toBe(100);
    expect(after.failed_by_class.never).toBeGreaterThanOrEqual(2);
    const csv = await t.as(admin, { method: 'GET', url: '/api/reports/recovery/export' });
    expect(csv.body).toContain('Amount recovered (KES)');

    // Split as the retention figures are: the groups add up to the whole, and the recovered payment
    // sits under the D2 SMS package's category and medium and the subscriber's first channel (the
    // paid retry of a purchase asked on the USSD menu).
    type Figures = { failed_by_class: { retry: number; remind: number; never: number }; retries: number; reminders: number; recovered_amount: number; recovered_payments: number };
    const flat = (f: Figures) => [f.failed_by_class.retry, f.failed_by_class.remind, f.failed_by_class.never, f.retries, f.reminders, f.recovered_amount, f.recovered_payments];
    const recoveredUnder: Record<string, string> = {};
    for (const by of ['category', 'medium', 'channel'] as const) {
      const split = await t.as(admin, { method: 'GET', url: `/api/reports/recovery?group_by=${by}` });
      expect(split.statusCode).toBe(200);
      const body = split.json<Figures & { groups: (Figures & { key: string; label: string })[] }>();
      expect(flat(body)).toEqual(flat(after));
      const sum = body.groups.map(flat).reduce((a, b) => a.map((x, i) => x + b[i]!), flat(body).map(() => 0));
      expect(sum.map((x) => Math.round(x * 100))).toEqual(flat(after).map((x) => Math.round(x * 100)));
      recoveredUnder[by] = body.groups.find((g) => g.recovered_payments > 0)!.label;
      const splitCsv = await t.as(admin, { method: 'GET', url: `/api/reports/recovery/export?group_by=${by}` });
      expect(splitCsv.body).toContain(`${recoveredUnder[by]},Amount recovered (KES)`);
    }
    expect(recoveredUnder).toEqual({ category: ref.d2.name, medium: 'SMS', channel: 'USSD menu' });
    const refused = await t.as(admin, { method: 'GET', url: '/api/reports/recovery?group_by=colour' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.group_by).toBeDefined();
  });
});
