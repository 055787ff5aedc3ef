import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/rows.ts';
import { seedDemo } from '../../src/seed/demo.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('seeds demo payments through the ingestion path: matched ones bought something, others wait unclaimed', async () => {
  expect(await seedDemo(t.deps)).toBe(true);
  const [counts] = await rows<{ claimed: number; unclaimed: number; bought: number; uncredited: number }>(
    t.deps.db,
    sql`select count(*) filter (where status = 'claimed')::int as claimed,
               count(*) filter (where status = 'unclaimed')::int as unclaimed,
               (select count(*)::int from subscriptions where payment_id is not null) as bought,
               count(*) filter (where status = 'claimed' and amount_cents <> (
                  select coalesce(sum(amount_cents), 0) from ledger_entries l
                   where l.payment_id = mpesa_payments.id and l.kind = 'payment'))::int as uncredited
          from mpesa_payments`,
  );
  expect(counts!.claimed).toBeGreaterThan(10);
  expect(counts!.unclaimed).toBeGreaterThan(3);
  expect(counts!.bought).toBeGreaterThan(10);
  expect(counts!.uncredited).toBe(0);
});
