/**
 * DATABASE_URL=... node --import tsx bench/expiry-catch-up.ts: the expiry job on a history whose
 * expired subscriptions were never marked lapsed (an import from the old system), run as the worker
 * runs it (decision 064): how many it marked, in how long, and the longest single batch (the longest
 * a transaction of the job holds its rows). Add `--reset` to mark every expired subscription
 * unlapsed first (a bench database already caught up).
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { rows } from '../apps/api/src/db/rows.ts';
import { markExpiredSubscriptionsLapsed } from '../apps/api/src/modules/subscriptions/queries.ts';
import { LAPSE_BATCH, runSubscriptionExpiry } from '../apps/api/src/modules/subscriptions/expiry.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL must name a bench database');
const database = await openDatabase({ url, poolSize: 2 });
const db = database.db;

if (process.argv.includes('--reset')) {
  await db.execute(sql`update subscriptions set lapsed_at = null where lapsed_at is not null`);
  await db.execute(sql`vacuum analyze subscriptions`);
}
const due = async () =>
  (await rows<{ n: number }>(db, sql`select count(*)::int as n from subscriptions where lapsed_at is null and expires_at <= now()`))[0]!.n;
const before = await due();

// One batch alone, timed: what each of the run's transactions costs.
const batchStart = performance.now();
const first = await markExpiredSubscriptionsLapsed(db, LAPSE_BATCH);
const batchMs = performance.now() - batchStart;

const start = performance.now();
const run = await runSubscriptionExpiry(db);
const runMs = performance.now() - start;
const left = await due();
console.log(
  JSON.stringify({ due_before: before, first_batch: first.marked, first_batch_ms: Math.round(batchMs), run_lapsed: run.lapsed, run_s: +(runMs / 1000).toFixed(1), left }),
);
await database.close();
