import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ledgerEntries, mpesaPayments } from '../../src/db/schema/index.ts';
import { runMoneyCheck } from '../../src/modules/reconciliation/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { c2b, confirm, ledgerOf, paymentByReceipt, seedPeople } from '../mpesa/fixtures.ts';
import { portalStatement } from './statement-file.ts';

let t: TestApp;
let admin: string;
let staff: string;
let ref: Awaited<ReturnType<typeof seedPeople>>;

beforeAll(async () => {
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  ref = await seedPeople(t);
  await t.addUser({ email: 'boss@recon.test', categoryId: ADMIN });
  await t.addUser({ email: 'agent@recon.test' });
  admin = await t.tokenFor('boss@recon.test');
  staff = await t.tokenFor('agent@recon.test');
});
afterAll(() => t.close());

function upload(token: string, file: string, name = 'statement.csv') {
  const boundary = '----betdesk-test-boundary';
  const payload = [
    `--${boundary}`,
    `Content-Disposition: form-data; name="file"; filename="${name}"`,
    'Content-Type: text/csv',
    '',
    file,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return t.as(token, {
    method: 'POST',
    url: '/api/mpesa/statements',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

/** Yesterday in Nairobi, the day before and today, as YYYY-MM-DD; callbacks of yesterday came in on time. */
const dayOf = (offsetDays: number) => new Date(Date.now() + 3 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
const DAY = dayOf(-1);
const at = (time: string) => `${DAY} ${time}`;
const transTime = (time: string) => `${DAY}${time}`.replace(/[-: ]/g, '');

const show = (statementId: number, extra = '') =>
  t.as(admin, { method: 'GET', url: `/api/mpesa/statements/show?statement_id=${statementId}${extra}` });

describe('statement import', () => {
  // Nairobi times: the C2B confirmations below say the same times (TransTime).
  const file = portalStatement([
    { receipt: 'SRA0000001', completed: at('09:00:00'), paidIn: '100.00', account: 'D2' },
    { receipt: 'SRA0000002', completed: at('10:00:00'), paidIn: '1,000.00', account: 'X', otherParty: '254733000111 - MARY ATIENO' },
    { receipt: 'SRA0000003', completed: at('11:00:00'), paidIn: '250.00' },
    { receipt: 'SRA0000005', completed: at('12:00:00'), details: 'Business Payment', reason: 'Business Payment', withdrawn: '-500.00' },
    { receipt: 'SRA0000006', completed: at('12:00:00'), details: 'Business Payment Charge', reason: 'Charge', withdrawn: '-15.00' },
    { receipt: 'SRA0000007', completed: at('18:00:00'), paidIn: '50.00' },
  ]);
  let statementId: number;
  let subscriberId: number;

  beforeAll(async () => {
    subscriberId = await ref.person('subscriber', 'Mary Atieno', '254733000111');
    // Betdesk has: one matching receipt, one with another amount, one the statement lacks.
    await confirm(t, c2b({ TransID: 'SRA0000001', TransTime: transTime('09:00:00'), TransAmount: '100.00', BillRefNumber: 'ZZ' }));
    await confirm(t, c2b({ TransID: 'SRA0000003', TransTime: transTime('11:00:00'), TransAmount: '200.00', BillRefNumber: 'ZZ' }));
    await confirm(t, c2b({ TransID: 'SRA0000004', TransTime: transTime('11:30:00'), TransAmount: '70.00', BillRefNumber: 'ZZ' }));
  });

  it('compares the paid-in rows by receipt and summarises withdrawals and charges', async () => {
    const res = await upload(admin, file);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    statementId = body.statement_id;
    expect(body).toMatchObject({
      info: 'Statement compared',
      duplicate: false,
      rows: 6,
      paid_in_rows: 4,
      matched: 1,
      missing: 2,
      mismatched: 1,
      not_on_statement: 1,
      withdrawals: { rows: 1, amount: 500 },
      charges: { rows: 1, amount: 15 },
    });
  });

  it('shows the rows of each kind', async () => {
    const res = await show(statementId);
    expect(res.statusCode).toBe(200);
    const { rows } = res.json();
    expect(rows.missing.map((r: { transaction_reference: string }) => r.transaction_reference)).toEqual(['SRA0000002', 'SRA0000007']);
    expect(rows.mismatched[0]).toMatchObject({ transaction_reference: 'SRA0000003', statement_amount: 250, payment_amount: 200 });
    expect(rows.not_on_statement[0]).toMatchObject({ transaction_reference: 'SRA0000004', statement_amount: null, payment_amount: 70 });
    expect(rows.matched[0]).toMatchObject({ transaction_reference: 'SRA0000001', statement_amount: 100, payment_amount: 100 });
    const paged = await show(statementId, '&kind=missing&page=2&perPage=50');
    expect(paged.json().rows).toMatchObject({ missing: [], matched: [] });
  });

  it('changes nothing when the same statement is uploaded again', async () => {
    const res = await upload(admin, file, 'again.csv');
    expect(res.json()).toMatchObject({ statement_id: statementId, duplicate: true, info: 'This statement was uploaded before: nothing changed' });
    const [count] = await t.deps.db.execute(sql`select count(*)::int as n from mpesa_statements`).then((r) => (r as unknown as { rows: { n: number }[] }).rows);
    expect(count!.n).toBe(1);
  });

  it('imports the missing receipts on the right person once, and a late callback adds nothing', async () => {
    const res = await t.as(admin, { method: 'POST', url: '/api/mpesa/statements/import-missing', payload: { statement_id: statementId } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ imported: 2, claimed: 1, unclaimed: 1, statement: { missing: 0, matched: 3 } });

    const mary = await paymentByReceipt(t, 'SRA0000002');
    expect(mary).toMatchObject({ source: 'statement', status: 'claimed', subscriberId, amountCents: 100_000, senderPhone: '254733000111' });
    expect(mary!.receivedAt.toISOString()).toBe(new Date(`${DAY}T10:00:00+03:00`).toISOString());
    expect(await ledgerOf(t, { subscriberId })).toBe(100_000);

    const again = await t.as(admin, { method: 'POST', url: '/api/mpesa/statements/import-missing', payload: { statement_id: statementId } });
    expect(again.json()).toMatchObject({ imported: 0 });

    // The confirmation that had been lost finally arrives.
    const late = await confirm(t, c2b({ TransID: 'SRA0000002', TransTime: transTime('10:00:00'), TransAmount: '1000.00', MSISDN: '254733000111', BillRefNumber: 'X' }));
    expect(late.statusCode).toBe(200);
    const stored = await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.transId, 'SRA0000002'));
    expect(stored).toHaveLength(1);
    expect(await ledgerOf(t, { subscriberId })).toBe(100_000);
  });

  it('refuses a bad file naming the line and the column', async () => {
    const bad = portalStatement([{ receipt: 'SRB0000001', completed: at('09:00:00'), paidIn: '12..5' }]);
    const res = await upload(admin, bad);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file[0]).toBe('Line 7, column "Paid In": "12..5" is not an amount');
    const empty = await upload(admin, '');
    expect(empty.statusCode).toBe(422);
  });

  it('is for admins only', async () => {
    expect((await upload(staff, file)).statusCode).toBe(403);
    expect((await t.as(staff, { method: 'GET', url: '/api/mpesa/reconciliation' })).statusCode).toBe(403);
  });
});

describe('the daily money check', () => {
  it('shows each day received, claimed, unclaimed, the statement and the difference', async () => {
    const res = await t.as(admin, { method: 'GET', url: `/api/mpesa/reconciliation?from=${dayOf(-2)}&to=${dayOf(0)}` });
    expect(res.statusCode).toBe(200);
    const [before, day, after] = res.json().days;
    expect(before).toMatchObject({ day: dayOf(-2), received: 0, statement_id: null, on_statement: null, difference: null });
    // Statement: 100 + 1,000 + 250 + 50 = 1,400. Betdesk: 100 + 200 + 70 + 1,000 + 50 = 1,420.
    expect(day).toMatchObject({ day: DAY, received: 1420, received_count: 5, on_statement: 1400, difference: -20 });
    expect(day.claimed + day.unclaimed).toBe(1420);
    expect(after).toMatchObject({ day: dayOf(0), received: 0 });
  });

  it('lists the rows behind a figure', async () => {
    const diff = await t.as(admin, { method: 'GET', url: `/api/mpesa/reconciliation/rows?day=${DAY}&figure=difference` });
    expect(diff.statusCode).toBe(200);
    expect(diff.json().rows.map((r: { transaction_reference: string }) => r.transaction_reference)).toEqual(['SRA0000003', 'SRA0000004']);
    const received = await t.as(admin, { method: 'GET', url: `/api/mpesa/reconciliation/rows?day=${DAY}&figure=received&perPage=50` });
    expect(received.json().total_records).toBe(5);
  });

  it('refuses more than 92 days and a bad date', async () => {
    const long = await t.as(admin, { method: 'GET', url: '/api/mpesa/reconciliation?from=2025-01-01&to=2025-06-30' });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.to).toEqual(['Choose at most 92 days']);
    const bad = await t.as(admin, { method: 'GET', url: '/api/mpesa/reconciliation?from=2025-02-30' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.from).toBeDefined();
  });
});

describe('the money invariants', () => {
  it('hold after payments, imports and claims', async () => {
    const check = await runMoneyCheck(t.deps.db);
    expect(check.failures).toEqual([]);
    expect(check.ok).toBe(true);
  });

  it('catch a hand-corrupted ledger row and show admins a failure', async () => {
    const mary = await paymentByReceipt(t, 'SRA0000002');
    await t.deps.db.update(ledgerEntries).set({ amountCents: 90_000 }).where(sql`${ledgerEntries.paymentId} = ${mary!.id} and ${ledgerEntries.kind} = 'payment'`);
    const res = await t.as(admin, { method: 'POST', url: '/api/mpesa/money-check/run' });
    expect(res.statusCode).toBe(200);
    const check = res.json().money_check;
    expect(check.ok).toBe(false);
    expect(check.failures.map((f: { check: string }) => f.check)).toEqual([
      "each payment's ledger entries balance",
      "each client's and subscriber's balance equals the sum of their entries",
    ]);
    expect(check.failures[0].examples[0]).toContain('SRA0000002');
    const status = await t.as(admin, { method: 'GET', url: '/api/mpesa/reconciliation/status' });
    expect(status.json()).toMatchObject({ pull_configured: false, last_pull: null, money_check: { ok: false } });
  });
});
