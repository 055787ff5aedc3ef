import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asPlaceholders, fixedRows, type FixedStatement } from '../../src/db/fixed-statements.ts';
import { mpesaPayments } from '../../src/db/schema/index.ts';
import { paymentInsertOnce } from '../../src/modules/mpesa/queries/claims.ts';
import { rows } from '../../src/db/rows.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

// The C2B purchase's inserts build their text once per shape and fill placeholders on each run
// (decision 049): what they write must be what a statement built for each payment writes.
describe('statements whose text is built once per shape', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const payment = (receipt: string, amountCents: number, extra: Record<string, unknown> = {}) =>
    paymentInsertOnce(t.deps.db, {
      transId: receipt,
      source: 'c2b',
      transactionType: 'Pay Bill',
      amountCents,
      billRefNumber: 'D2',
      senderName: 'FIXED PAYER',
      transTime: new Date('2026-11-29T06:00:00Z'),
      businessShortCode: '600984',
      raw: { TransID: receipt },
      status: 'unclaimed',
      ...extra,
    });

  it('builds a shape once and writes each run its own values', async () => {
    let builds = 0;
    const counted = (statement: FixedStatement): FixedStatement => ({
      ...statement,
      shape: `${statement.shape} (counted)`,
      build: () => {
        builds += 1;
        return statement.build();
      },
    });
    const first = await fixedRows<{ id: string }>(t.deps.db, counted(payment('FXS0000001', 12_300)));
    const second = await fixedRows<{ id: string }>(t.deps.db, counted(payment('FXS0000002', 45_600)));
    expect(builds).toBe(1);
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
    const stored = await t.deps.db
      .select({ transId: mpesaPayments.transId, amountCents: mpesaPayments.amountCents, raw: mpesaPayments.raw, transTime: mpesaPayments.transTime })
      .from(mpesaPayments)
      .where(sql`${mpesaPayments.transId} in ('FXS0000001', 'FXS0000002')`)
      .orderBy(mpesaPayments.transId);
    expect(stored).toEqual([
      { transId: 'FXS0000001', amountCents: 12_300, raw: { TransID: 'FXS0000001' }, transTime: new Date('2026-11-29T06:00:00Z') },
      { transId: 'FXS0000002', amountCents: 45_600, raw: { TransID: 'FXS0000002' }, transTime: new Date('2026-11-29T06:00:00Z') },
    ]);
    // A receipt stored already writes nothing (ON CONFLICT DO NOTHING), through the same text.
    expect(await fixedRows(t.deps.db, payment('FXS0000001', 12_300))).toEqual([]);
  });

  it('writes a null as SQL NULL in the text (a timestamp\'s encoder would throw on it)', async () => {
    await fixedRows(t.deps.db, payment('FXS0000003', 700, { senderName: null, transTime: null }));
    const [found] = await rows<{ name_is_null: boolean; time_is_null: boolean }>(
      t.deps.db,
      sql`select sender_name is null as name_is_null, trans_time is null as time_is_null from ${mpesaPayments} where trans_id = 'FXS0000003'`,
    );
    expect(found).toEqual({ name_is_null: true, time_is_null: true });
  });

  it('refuses a statement that would keep a value in its text', async () => {
    const leaky: FixedStatement = { shape: 'leaky probe', values: {}, build: () => sql`select ${42}::int as answer` };
    await expect(fixedRows(t.deps.db, leaky)).rejects.toThrow(/not a placeholder/);
    const p = asPlaceholders({ answer: 42 }, 'probe_');
    const [row] = await fixedRows<{ answer: number }>(t.deps.db, { shape: 'probe', values: p.values, build: () => sql`select ${p.row.answer}::int as answer` });
    expect(row?.answer).toBe(42);
  });
});
