import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/rows.ts';
import { takeLease } from '../../src/db/leases.ts';
import { EXPIRY_LEASE, runSubscriptionExpiry } from '../../src/modules/subscriptions/expiry.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

// Decision 064: the expiry job on an imported history (every expired subscription not yet marked
// lapsed) marks them in bounded batches, each committed on its own, in one process at a time.

let t: TestApp;
let subscriberId: number;

beforeAll(async () => {
  t = await createTestApp();
  const [row] = await rows<{ id: number }>(
    t.deps.db,
    sql`insert into tips_subscribers (name, phone, phone_hash) values ('Imported Punter', '254700000064', 'hash-of-254700000064') returning id`,
  );
  subscriberId = row!.id;
});
afterAll(() => t.close());

/** `expired` subscriptions that ended days ago and `running` ones that end next week, none marked lapsed. */
async function importHistory(expired: number, running: number) {
  await t.deps.db.execute(sql`delete from subscriptions`);
  await t.deps.db.execute(sql`delete from job_leases`);
  await t.deps.db.execute(sql`
    insert into subscriptions (subscriber_id, medium, duration_days, amount_cents, starts_at, expires_at, source)
    select ${subscriberId}, 'sms', 7, 10000, now() - interval '30 days' - g * interval '1 minute', now() - interval '23 days' - g * interval '1 minute', 'manual'
    from generate_series(1, ${expired}) g`);
  await t.deps.db.execute(sql`
    insert into subscriptions (subscriber_id, medium, duration_days, amount_cents, starts_at, expires_at, source)
    select ${subscriberId}, 'sms', 7, 10000, now(), now() + interval '7 days', 'manual'
    from generate_series(1, ${running}) g`);
}

async function counts() {
  const [row] = await rows<{ lapsed: number; waiting: number; running_lapsed: number }>(
    t.deps.db,
    sql`select count(*) filter (where lapsed_at is not null)::int as lapsed,
               count(*) filter (where lapsed_at is null and expires_at <= now())::int as waiting,
               count(*) filter (where lapsed_at is not null and expires_at > now())::int as running_lapsed
        from subscriptions`,
  );
  return row!;
}

describe('the expiry job on an imported history (decision 064)', () => {
  beforeEach(() => importHistory(2_345, 10));

  it('marks every expired subscription lapsed in batches, and no running one', async () => {
    const run = await runSubscriptionExpiry(t.deps.db, { batchSize: 1_000 });
    expect(run).toMatchObject({ lapsed: 2_345, skipped: false });
    expect(await counts()).toEqual({ lapsed: 2_345, waiting: 0, running_lapsed: 0 });
    // Caught up: the next run has nothing left to mark.
    expect(await runSubscriptionExpiry(t.deps.db, { batchSize: 1_000 })).toMatchObject({ lapsed: 0, skipped: false });
  });

  it('keeps each batch it committed when stopped midway, and the next run does the rest', async () => {
    const stopping = new AbortController();
    stopping.abort();
    const first = await runSubscriptionExpiry(t.deps.db, { batchSize: 1_000, signal: stopping.signal });
    expect(first.lapsed).toBe(1_000);
    expect(await counts()).toMatchObject({ lapsed: 1_000, waiting: 1_345 });
    const second = await runSubscriptionExpiry(t.deps.db, { batchSize: 1_000 });
    expect(second.lapsed).toBe(1_345);
    expect(await counts()).toMatchObject({ lapsed: 2_345, waiting: 0 });
  });

  it('does nothing while another process holds the lease, and runs once that lease has lapsed', async () => {
    expect(await takeLease(t.deps.db, EXPIRY_LEASE, 60, 'other-host:1:abc')).toBe(true);
    expect(await runSubscriptionExpiry(t.deps.db, { batchSize: 1_000 })).toEqual({ lapsed: 0, reminded: 0, skipped: true });
    expect(await counts()).toMatchObject({ lapsed: 0, waiting: 2_345 });

    // The other process died: its lease ran out without a renewal.
    await t.deps.db.execute(sql`update job_leases set until = now() - interval '1 second' where name = ${EXPIRY_LEASE}`);
    expect(await runSubscriptionExpiry(t.deps.db, { batchSize: 1_000 })).toMatchObject({ lapsed: 2_345, skipped: false });
    // And the run gave the lease back when it ended.
    expect(await rows(t.deps.db, sql`select 1 from job_leases where name = ${EXPIRY_LEASE}`)).toEqual([]);
  });

  it('lets two runs at once mark each subscription once between them', async () => {
    const [a, b] = await Promise.all([
      runSubscriptionExpiry(t.deps.db, { batchSize: 500, holder: 'host-a:1:a' }),
      runSubscriptionExpiry(t.deps.db, { batchSize: 500, holder: 'host-b:2:b' }),
    ]);
    // One of them holds the lease; the other does nothing.
    expect([a.skipped, b.skipped].sort()).toEqual([false, true]);
    expect(a.lapsed + b.lapsed).toBe(2_345);
    expect(await counts()).toMatchObject({ lapsed: 2_345, waiting: 0 });
  });
});
