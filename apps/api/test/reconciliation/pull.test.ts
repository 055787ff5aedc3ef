import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { mpesaPayments, mpesaPullRuns } from '../../src/db/schema/index.ts';
import type { PulledTransaction } from '../../src/integrations/mpesa/daraja.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { runPull } from '../../src/modules/reconciliation/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { c2b, confirm, ledgerOf, paymentByReceipt, seedPeople, appWithFakeDaraja } from '../mpesa/fixtures.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: Awaited<ReturnType<typeof seedPeople>>;
let admin: string;

beforeAll(async () => {
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '600984' }));
  ref = await seedPeople(t);
  await t.addUser({ email: 'boss@pull.test', categoryId: ADMIN });
  admin = await t.tokenFor('boss@pull.test');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** A C2B payment M-Pesa holds, `minutesAgo` before now. */
function mpesaHas(id: string, amount: string, over: Partial<PulledTransaction> = {}, minutesAgo = 20): PulledTransaction {
  const row: PulledTransaction = {
    transactionId: id,
    trxDate: new Date(Date.now() - minutesAgo * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    msisdn: 254_799_000_001,
    sender: 'JOHN KAMAU',
    transactiontype: 'c2b-pay-bill-debit',
    billreference: 'ZZ',
    amount,
    organizationname: 'Betdesk',
    ...over,
  };
  fake.pullTransactions.push(row);
  return row;
}

describe('Pull Transactions', () => {
  it('recovers a confirmation that never came, on the right person, and asks for the right window', async () => {
    const subscriberId = await ref.person('subscriber', 'Pulled Subscriber', '254722400001');
    mpesaHas('PLA0000001', '100.00', { msisdn: 254_722_400_001, billreference: 'D2' });
    const run = await runPull(t.deps, { force: true });
    expect(run).toMatchObject({ status: 'ok', rowsSeen: 1, rowsRecovered: 1 });
    expect(fake.pullQueries.map((q) => q.OffSetValue)).toEqual(['0', '1']);
    const query = fake.pullQueries[0]!;
    expect(query).toMatchObject({ ShortCode: '600984' });
    expect(String(query.StartDate)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const payment = await paymentByReceipt(t, 'PLA0000001');
    expect(payment).toMatchObject({ source: 'pull', status: 'claimed', subscriberId, amountCents: 10_000 });
    expect(await ledgerOf(t, { subscriberId })).toBe(0); // it bought the D2 SMS package

    // The callback then arrives after all: acknowledged, nothing counted twice.
    await confirm(t, c2b({ TransID: 'PLA0000001', TransAmount: '100.00', MSISDN: '254722400001', BillRefNumber: 'D2' }));
    expect(await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.transId, 'PLA0000001'))).toHaveLength(1);
  });

  it('leaves alone what it has already seen', async () => {
    await confirm(t, c2b({ TransID: 'PLA0000002', TransAmount: '70.00', BillRefNumber: 'ZZ' }));
    mpesaHas('PLA0000002', '70.00');
    const run = await runPull(t.deps, { force: true });
    expect(run).toMatchObject({ status: 'ok', rowsSeen: 2, rowsRecovered: 0 });
    expect((await paymentByReceipt(t, 'PLA0000002'))!.source).toBe('c2b');
  });

  it('pages through the results by offset', async () => {
    fake.pullPageSize = 2;
    mpesaHas('PLA0000003', '10.00');
    mpesaHas('PLA0000004', '11.00');
    mpesaHas('PLA0000005', '12.00');
    const asked = fake.pullQueries.length;
    const run = await runPull(t.deps, { force: true });
    expect(run).toMatchObject({ status: 'ok', rowsSeen: 5, rowsRecovered: 3, pages: 3 });
    expect(fake.pullQueries.slice(asked).map((q) => q.OffSetValue)).toEqual(['0', '2', '4', '5']);
    fake.pullPageSize = 1000;
  });

  it('records an empty period as a good run', async () => {
    const saved = fake.pullTransactions.splice(0);
    const run = await runPull(t.deps, { force: true });
    expect(run).toMatchObject({ status: 'ok', rowsSeen: 0, rowsRecovered: 0 });
    fake.pullTransactions.push(...saved);
  });

  it('records an error answered with HTTP 200 as a failed run, and the next run catches up', async () => {
    fake.pullFailures = 1;
    mpesaHas('PLA0000006', '13.00');
    const failed = await runPull(t.deps, { force: true });
    expect(failed).toMatchObject({ status: 'failed', rowsRecovered: 0, error: 'Failed to retrieve transactions' });
    const next = await runPull(t.deps, { force: true });
    expect(next).toMatchObject({ status: 'ok', rowsRecovered: 1 });

    const status = await t.as(admin, { method: 'GET', url: '/api/mpesa/reconciliation/status' });
    expect(status.json()).toMatchObject({ pull_configured: true, pull_interval_hours: 1, last_pull: { status: 'ok', rows_recovered: 1 } });
  });

  it('waits for the interval unless asked now', async () => {
    expect(await runPull(t.deps)).toBeNull();
    const later = await runPull(t.deps, { now: new Date(Date.now() + 61 * 60_000) });
    expect(later).toMatchObject({ status: 'ok' });
    const res = await t.as(admin, { method: 'POST', url: '/api/mpesa/pull/run' });
    expect(res.json()).toMatchObject({ info: 'Pull Transactions ran', run: { status: 'ok' } });
  });

  it('registers the pull URL with Daraja', async () => {
    const { darajaFor } = await import('../../src/integrations/mpesa/daraja.ts');
    const daraja = darajaFor(t.deps.config.mpesa, t.deps.config.webhookSecret)!;
    const answer = await daraja.registerPull('0722000000');
    expect(answer.callbackUrl).toBe('https://betdesk.example.com/api/hooks/pull/test-webhook-secret-0123');
    expect(fake.pullRegistered.at(-1)).toMatchObject({ ShortCode: '600984', RequestType: 'Pull', NominatedNumber: '0722000000' });
    await expect(daraja.registerPull('0722000000')).resolves.toMatchObject({ responseDescription: 'ShortCode already Registered' });
  });
});

describe("Daraja's pull notification", () => {
  it('is acknowledged behind the webhook secret only', async () => {
    const post = (secret: string) =>
      t.app.inject({ method: 'POST', url: `/api/hooks/pull/${secret}`, headers: { 'content-type': 'application/json' }, payload: '{"any":"thing"}' });
    expect((await post('wrong-secret-0123456789')).statusCode).toBe(404);
    const ok = await post('test-webhook-secret-0123');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ResultCode: 0, ResultDesc: 'Success' });
  });
});

describe('without M-Pesa configured', () => {
  it('calls nothing and says pull is off', async () => {
    const plain = await createTestApp();
    try {
      await plain.addUser({ email: 'boss@off.test', categoryId: ADMIN });
      const token = await plain.tokenFor('boss@off.test');
      expect(await runPull(plain.deps, { force: true })).toBeNull();
      const res = await plain.as(token, { method: 'POST', url: '/api/mpesa/pull/run' });
      expect(res.json()).toMatchObject({ info: 'M-Pesa is not configured: Pull Transactions is off', run: null });
      expect(await plain.deps.db.select().from(mpesaPullRuns)).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
