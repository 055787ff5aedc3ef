import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN_CATEGORY_ID } from '@betdesk/contract';
import { rows } from '../../src/db/rows.ts';
import { runMoneyCheck } from '../../src/modules/reconciliation/service.ts';
import { seedDemo } from '../../src/seed/demo.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // As at a first start: the admin exists before the demo data is seeded.
  await t.addUser({ email: 'admin@betdesk.local', categoryId: ADMIN_CATEGORY_ID });
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
  // The whole demo history goes through the ingestion path: about 15 s alone, more on a busy machine.
}, 120_000);

it('leaves the demo data in balance: every money invariant holds and each day adds up', async () => {
  expect((await runMoneyCheck(t.deps.db)).failures).toEqual([]);
  const days = await rows<{ received: string; claimed: string; unclaimed: string }>(
    t.deps.db,
    sql`select coalesce(sum(amount_cents) filter (where status <> 'rejected'), 0) as received,
               coalesce(sum(amount_cents) filter (where status = 'claimed'), 0) as claimed,
               coalesce(sum(amount_cents) filter (where status = 'unclaimed'), 0) as unclaimed
          from mpesa_payments group by (coalesce(trans_time, received_at) at time zone 'Africa/Nairobi')::date`,
  );
  for (const d of days) expect(Number(d.claimed) + Number(d.unclaimed)).toBe(Number(d.received));
});

it("names who opened and closed each demo bet: the client's staff member, or an admin", async () => {
  const [bets] = await rows<{ all: number; unnamed: number; wrong_staff: number; unclosed_by: number; staff_named: number }>(
    t.deps.db,
    sql`select count(*)::int as all,
               count(*) filter (where b.opened_by is null)::int as unnamed,
               count(*) filter (where a.user_id is not null and b.opened_by <> a.user_id)::int as wrong_staff,
               count(*) filter (where b.status = 'closed' and b.closed_by is distinct from b.opened_by)::int as unclosed_by,
               count(distinct b.opened_by) filter (where a.user_id is not null)::int as staff_named
          from bets b left join client_assignments a on a.client_id = b.client_id`,
  );
  expect(bets!.all).toBeGreaterThan(100);
  expect(bets!.unnamed).toBe(0);
  expect(bets!.wrong_staff).toBe(0);
  expect(bets!.unclosed_by).toBe(0);
  expect(bets!.staff_named).toBeGreaterThan(0);
});
