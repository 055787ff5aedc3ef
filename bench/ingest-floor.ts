/**
 * The floor under C2B ingestion (decision 044): the bare SQL of the least a tips purchase must write on
 * Betdesk's own schema, run by pgbench at the ingestion scenario's concurrency against the same
 * database, right after the product's run. One transaction per purchase, as the product does: the
 * payment stored claimed, the subscription it buys, the receipt SMS queued, and the ledger lines
 * (the payment credited, the subscription debited), through every index and trigger the tables have.
 * The product's rate divided by this one says what the product's own work costs: absolute rates move
 * with the machine's load, the ratio much less.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { cpuMeter, type CpuEach } from './cpu.ts';

const run = promisify(execFile);

/** An index the floor's cleanup builds and drops again (bench-only, never in the migrations). */
const CLEANUP_INDEX = 'bench_floor_cleanup_ledger_subscription_idx';

/** `machineCpuMsEach`: the whole machine's per purchase (pgbench and the database). */
export interface FloorResult extends CpuEach {
  perSecond: number;
  transactions: number;
  seconds: number;
}

/** What the purchase needs from the database: a subscriber id range and one SMS package of a category. */
async function purchaseFacts(sql: pg.Client) {
  const { rows } = await sql.query<{ lo: string; hi: string; package_id: number; bet_category_id: number; medium: string; duration_days: number; price_cents: string }>(
    `select (select min(id) from tips_subscribers) as lo, (select max(id) from tips_subscribers) as hi,
            p.id as package_id, p.bet_category_id, p.medium, p.duration_days, p.price_cents
       from price_packages p order by p.id limit 1`,
  );
  if (!rows[0] || rows[0].lo === null) throw new Error('the floor needs tips subscribers and a price package: generate the bench database first');
  return rows[0];
}

/** The pgbench script of one purchase (variables: :sub a subscriber id). */
export function purchaseScript(f: { lo: string; hi: string; package_id: number; bet_category_id: number; medium: string; duration_days: number; price_cents: string }): string {
  const amount = Number(f.price_cents);
  return `\\set sub random(${f.lo}, ${f.hi})
BEGIN;
INSERT INTO mpesa_payments (trans_id, source, transaction_type, amount_cents, bill_ref_number, msisdn, msisdn_kind, sender_name,
  trans_time, business_short_code, raw, status, subscriber_id, matched_by, claimed_at)
VALUES ('F' || upper(substr(md5(random()::text || clock_timestamp()::text), 1, 11)), 'c2b', 'Pay Bill', ${amount}, 'FLOOR',
  md5(CAST(:sub AS text)), 'hashed', 'FLOOR PAYER', now(), '600984', jsonb_build_object('floor', true), 'claimed',
  :sub, 'account', now())
RETURNING id AS payment_id \\gset
INSERT INTO subscriptions (subscriber_id, package_id, bet_category_id, medium, duration_days, amount_cents, starts_at, expires_at, source, payment_id)
VALUES (:sub, ${f.package_id}, ${f.bet_category_id}, '${f.medium}', ${f.duration_days}, ${amount}, now(), now() + interval '${f.duration_days} days', 'c2b', :payment_id)
RETURNING id AS subscription_id \\gset
INSERT INTO sms_messages (intent, dedupe_key, recipient, body, parts, subscriber_id, priority)
VALUES ('tips.receipt', 'floor:' || :payment_id, '2547' || lpad(CAST(:sub % 100000000 AS text), 8, '0'),
  'Payment received: KES ${amount / 100} for your tips package. Your package runs until next week. Thank you.', 1, :sub, 1);
INSERT INTO ledger_entries (subscriber_id, amount_cents, kind, payment_id, subscription_id)
VALUES (:sub, ${amount}, 'payment', :payment_id, NULL), (:sub, -${amount}, 'subscription', :payment_id, :subscription_id);
END;
`;
}

/**
 * Runs the purchase script with pgbench (-c concurrency, -j 2, for `seconds`), prepared statements
 * (-M prepared: the floor is what the schema allows), and removes what it wrote afterwards so that
 * the bench database stays as generated.
 */
export async function measureIngestFloor(
  url: string,
  sql: pg.Client,
  concurrency: number,
  seconds: number,
  /** The local database's postmaster (its CPU is measured too), null when it is elsewhere. */
  postmaster: number | null,
): Promise<FloorResult> {
  const facts = await purchaseFacts(sql);
  const dir = mkdtempSync(join(tmpdir(), 'betdesk-floor-'));
  const script = join(dir, 'purchase.sql');
  writeFileSync(script, purchaseScript(facts));
  try {
    const meter = cpuMeter([], postmaster);
    const { stdout } = await run('pgbench', ['-n', '-M', 'prepared', '-c', String(concurrency), '-j', '2', '-T', String(seconds), '-r', '-f', script, url], {
      maxBuffer: 16 * 2 ** 20,
    });
    const tps = /tps = ([\d.]+)/.exec(stdout);
    const done = /number of transactions actually processed: (\d+)/.exec(stdout);
    if (!tps || !done) throw new Error(`pgbench printed no rate:\n${stdout}`);
    const { machineMs, databaseMs } = meter.stop();
    const purchases = Number(done[1]);
    return {
      perSecond: Number(tps[1]),
      transactions: purchases,
      seconds,
      machineCpuMsEach: machineMs === null ? null : machineMs / purchases,
      databaseCpuMsEach: databaseMs === null ? null : databaseMs / purchases,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    // What the floor wrote is not the business's: take it out again (ledger and SMS first, they point at the payment).
    await sql.query(`delete from ledger_entries where payment_id in (select id from mpesa_payments where bill_ref_number = 'FLOOR')`);
    await sql.query(`delete from sms_messages where dedupe_key like 'floor:%'`);
    // Deleting a subscription checks that no ledger line points at it, and the product never looks
    // ledger lines up by subscription (no index): without one for the cleanup, each of the floor's
    // subscriptions read the whole ledger (minutes, and PostgreSQL busy into the next run).
    await sql.query(`create index if not exists ${CLEANUP_INDEX} on ledger_entries (subscription_id)`);
    try {
      await sql.query(`delete from subscriptions where payment_id in (select id from mpesa_payments where bill_ref_number = 'FLOOR')`);
    } finally {
      await sql.query(`drop index if exists ${CLEANUP_INDEX}`);
    }
    await sql.query(`delete from mpesa_payments where bill_ref_number = 'FLOOR'`);
  }
}
