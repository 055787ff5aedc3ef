/**
 * npm run bench:sms (and the SMS fan-out scenario of npm run bench): a tips blast at business scale.
 * Generates BENCH_SUBSCRIBERS (100,000) subscribers with an active SMS subscription of one bet
 * category in bulk SQL, queues the tip to all of them with queueSmsFanout (one INSERT ... SELECT),
 * drains the outbox through the real Africa's Talking adapter against the fake gateway on loopback,
 * and prints the figures. Embedded PGlite by default; a fresh database on the server of DATABASE_URL
 * when it is set (dropped afterwards). The suite runs it with 100,000 x scale subscribers.
 *
 *   BENCH_SUBSCRIBERS  recipients (default 100000)
 *   SMS_BATCH_SIZE     recipients per gateway request (default 1000)
 *   SMS_SEND_RATE      messages per second (default 10000, the configuration's maximum)
 *   BENCH_TIMEOUT_S    the run gives up after this long (default 900)
 *   BENCH_THROUGH_JOBS 1: drain through pg-boss as the worker does (the sms-dispatch handler, each run
 *                      nudging the next while work is left) and count the job rows it left (decision 072)
 *
 * Then sign-in codes while a broadcast drains (runSignInDuringBroadcast): BENCH_SIGNIN_CODES codes
 * (default 40; 0 skips it) queued one by one while a BENCH_BROADCAST-message broadcast (2000) drains
 * at BENCH_SIGNIN_BATCH_SIZE / BENCH_SIGNIN_SEND_RATE (500 / 100, the configuration's defaults), and
 * each code's time to the gateway. BENCH_SUBSCRIBERS=0 runs only that.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { openDatabase, type Database } from '../apps/api/src/db/client.ts';
import { africasTalkingGateway } from '../apps/api/src/integrations/sms/africastalking.ts';
import { startFakeAfricasTalking } from '../apps/api/src/integrations/sms/fake-africastalking.ts';
import type { SmsGateway } from '../apps/api/src/integrations/sms/gateway.ts';
import { dispatchQueuedSms, queueSms, queueSmsFanout } from '../apps/api/src/modules/sms/outbox.ts';
import { QUEUES, startJobs, type JobHandler, type Jobs } from '../apps/api/src/jobs/jobs.ts';

const TIP = 'D2 tips today: Gor Mahia vs AFC Leopards, Over 1.5 goals @1.45. Good luck! Betdesk';

export interface SmsFanoutOptions {
  /** A PostgreSQL server URL (a fresh database is made on it and dropped); undefined: PGlite in memory. */
  serverUrl: string | undefined;
  subscribers: number;
  batchSize: number;
  sendRate: number;
  timeoutMs: number;
  /** Drain through pg-boss's sms-dispatch queue, as the worker does, and count its job rows. */
  throughJobs?: boolean;
}

export interface SmsFanoutResult {
  figures: [string, string][];
  /** Every subscriber queued once and sent exactly once, and a repeated fan-out queued nothing. */
  ok: boolean;
  queueingMs: number;
  drainMs: number;
  messagesPerSecond: number;
  duplicates: number;
}

async function benchDatabase(server: string | undefined): Promise<{ database: Database; label: string; drop(): Promise<void> }> {
  if (!server) return { database: await openDatabase({}), label: 'PGlite (in memory)', drop: async () => {} };
  const name = `betdesk_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    database: await openDatabase({ url: url.toString() }),
    label: `PostgreSQL (${url.host})`,
    drop: async () => {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function runSmsFanout(options: SmsFanoutOptions): Promise<SmsFanoutResult> {
  const { subscribers, batchSize, sendRate, timeoutMs } = options;
  const { database, label, drop } = await benchDatabase(options.serverUrl);
  const fake = await startFakeAfricasTalking({ username: 'bench', apiKey: 'bench-key', balanceKes: subscribers * 10 });
  try {
    await database.migrate();
    const db = database.db;

    let t = Date.now();
    await db.execute(sql`insert into bet_categories (name, code) values ('Bench Daily 2 Odds', 'BENCH')`);
    await db.execute(sql`
      insert into price_packages (bet_category_id, medium, name, duration_days, price_cents)
      select id, 'sms', 'Bench monthly SMS', 30, 50000 from bet_categories where code = 'BENCH'`);
    await db.execute(sql`
      insert into tips_subscribers (name, phone, phone_hash)
      select 'Subscriber ' || i, p.phone, encode(sha256(p.phone::bytea), 'hex')
        from generate_series(1, ${subscribers}) as i,
             lateral (select '2547' || lpad(i::text, 8, '0') as phone) as p`);
    await db.execute(sql`
      insert into subscriptions (subscriber_id, package_id, bet_category_id, medium, duration_days, amount_cents,
                                 starts_at, expires_at, source)
      select s.id, pp.id, pp.bet_category_id, 'sms', 30, pp.price_cents, now() - interval '1 day', now() + interval '29 days', 'manual'
        from tips_subscribers s cross join price_packages pp
       where pp.name = 'Bench monthly SMS'`);
    const generated = Date.now() - t;

    const fanout = {
      intent: 'tips.sms',
      dedupeKeyPrefix: 'bench-tip:v1',
      body: TIP,
      recipients: sql`select distinct s.id as subscriber_id, s.phone
                        from subscriptions sub join tips_subscribers s on s.id = sub.subscriber_id
                        join bet_categories c on c.id = sub.bet_category_id
                       where c.code = 'BENCH' and sub.medium = 'sms' and sub.expires_at > now()`,
      recipientsAre: 'subscribers' as const,
      createdBy: null,
    };
    t = Date.now();
    const queued = await db.transaction((tx) => queueSmsFanout(tx, fanout));
    const queueing = Date.now() - t;
    const queuedAgain = await db.transaction((tx) => queueSmsFanout(tx, fanout));

    const gateway = africasTalkingGateway({
      username: 'bench',
      apiKey: 'bench-key',
      baseUrl: fake.url,
      logger: pino({ level: 'silent' }),
    });
    t = Date.now();
    const totals = { sent: 0, failed: 0, retried: 0, unconfirmed: 0 };
    const add = (report: typeof totals) => {
      for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += report[key];
    };
    let jobFigures: [string, string][] = [];
    if (options.throughJobs) {
      // The worker's sms-dispatch handler (job-handlers.ts): a run drains for up to its time bound
      // (the outbox's default) and nudges the next while work is left.
      const jobsRef: { current: Jobs | null } = { current: null };
      const handler: JobHandler = {
        queue: QUEUES.smsDispatch,
        pollSeconds: 0.5,
        run: async (signal) => {
          const report = await dispatchQueuedSms(database, gateway, { batchSize, sendRate, signal });
          add(report);
          if (report.more) await jobsRef.current?.nudge(QUEUES.smsDispatch);
        },
      };
      jobsRef.current = await startJobs(database, [handler], pino({ level: 'silent' }) as never, { work: true, stopTimeoutMs: 10_000 });
      await jobsRef.current.nudge(QUEUES.smsDispatch);
      for (;;) {
        const { rows } = await database.executeSql(`select count(*)::int as n from sms_messages where status in ('queued', 'sending')`);
        if (Number(rows[0]!.n) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await jobsRef.current.stop();
      const jobRows = await database.executeSql(
        `select (select count(*)::int from pgboss.job) as job, (select count(*)::int from pgboss.job where name = 'sms-dispatch') as dispatch,
                (select count(*)::int from pgboss.archive) as archive`,
      );
      const r = jobRows.rows[0]!;
      jobFigures = [
        ["pg-boss job rows after the drain (all queues / sms-dispatch)", `${r.job} / ${r.dispatch}`],
        ["pg-boss archive rows after the drain", String(r.archive)],
      ];
    } else {
      let report = await dispatchQueuedSms(database, gateway, { batchSize, sendRate, maxRunMs: timeoutMs });
      add(report);
      while (report.more) {
        report = await dispatchQueuedSms(database, gateway, { batchSize, sendRate, maxRunMs: timeoutMs });
        add(report);
      }
    }
    const drain = Date.now() - t;

    const received = fake.calls.flatMap((call) => call.to);
    const duplicates = received.length - new Set(received).size;
    const { rows } = await database.executeSql(`select status, count(*)::int as n from sms_messages group by status`);
    const byStatus = Object.fromEntries(rows.map((r) => [String(r.status), Number(r.n)]));

    const figures: [string, string][] = [
      ['Database', label],
      ['Subscribers generated', `${subscribers.toLocaleString('en-KE')} in ${seconds(generated)}`],
      ['Rows queued (one INSERT ... SELECT)', queued.toLocaleString('en-KE')],
      ['Queueing time', seconds(queueing)],
      ['Rows queued by a repeated fan-out', String(queuedAgain)],
      ['Batch size / send rate limit', `${batchSize} / ${sendRate} messages a second`],
      ['Drain time', seconds(drain)],
      ['Messages a second', (totals.sent / (drain / 1000)).toFixed(0)],
      ['Gateway requests made', fake.calls.length.toLocaleString('en-KE')],
      ['Sent / failed / retried / unconfirmed', `${totals.sent} / ${totals.failed} / ${totals.retried} / ${totals.unconfirmed}`],
      ['Rows by status', JSON.stringify(byStatus)],
      ['Duplicates received by the gateway', String(duplicates)],
      ...jobFigures,
    ];
    const complete = queued === subscribers && totals.sent === subscribers && received.length === subscribers;
    return {
      figures,
      ok: duplicates === 0 && complete && queuedAgain === 0,
      queueingMs: queueing,
      drainMs: drain,
      messagesPerSecond: totals.sent / (drain / 1000),
      duplicates,
    };
  } finally {
    await fake.close();
    await database.close();
    await drop();
  }
}

export interface SignInDuringBroadcastOptions {
  serverUrl: string | undefined;
  /** Recipients of the broadcast that drains meanwhile (2,000). */
  broadcast: number;
  /** Sign-in codes queued one by one while it drains (40). */
  codes: number;
  batchSize: number;
  sendRate: number;
  timeoutMs: number;
}

export interface SignInDuringBroadcastResult {
  figures: [string, string][];
  /** Every code and every broadcast message reached the gateway exactly once. */
  ok: boolean;
  /** Each code's time from queued to the gateway's answer accepting it, ms, sorted. */
  codeMs: number[];
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

/**
 * Sign-in codes (the portal's, one message each, queued as the portal queues them) while a
 * broadcast of `broadcast` messages drains through one dispatcher at the configuration's batch size
 * and rate: each code's time from queued to accepted by the (fake) gateway. The codes are queued
 * at random moments spread over the broadcast's expected drain time.
 */
export async function runSignInDuringBroadcast(options: SignInDuringBroadcastOptions): Promise<SignInDuringBroadcastResult> {
  const { broadcast, codes, batchSize, sendRate, timeoutMs } = options;
  const { database, label, drop } = await benchDatabase(options.serverUrl);
  const fake = await startFakeAfricasTalking({ username: 'bench', apiKey: 'bench-key', balanceKes: (broadcast + codes) * 10 });
  try {
    await database.migrate();
    const db = database.db;
    await db.execute(sql`
      insert into tips_subscribers (name, phone, phone_hash)
      select 'Subscriber ' || i, p.phone, encode(sha256(p.phone::bytea), 'hex')
        from generate_series(1, ${broadcast}) as i,
             lateral (select '2547' || lpad(i::text, 8, '0') as phone) as p`);
    const queuedBroadcast = await db.transaction((tx) =>
      queueSmsFanout(tx, {
        intent: 'broadcast',
        dedupeKeyPrefix: 'bench-broadcast:v1',
        body: 'Betdesk: our weekend jackpot tips are out. Reply STOP to stop.',
        recipients: sql`select id as subscriber_id, phone from tips_subscribers`,
        recipientsAre: 'subscribers' as const,
        createdBy: null,
      }),
    );

    // When the gateway accepted each recipient (the answer of its request).
    const acceptedAt = new Map<string, number>();
    const real = africasTalkingGateway({ username: 'bench', apiKey: 'bench-key', baseUrl: fake.url, logger: pino({ level: 'silent' }) });
    const gateway: SmsGateway = {
      name: real.name,
      balance: () => real.balance(),
      async send(batch) {
        const outcomes = await real.send(batch);
        const at = Date.now();
        for (const sms of batch) acceptedAt.set(sms.recipient, at);
        return outcomes;
      },
    };

    const expectedDrainMs = (broadcast / sendRate) * 1000;
    const queuedAt = new Map<string, number>();
    let codesQueued = 0;
    const queueCodes = (async () => {
      for (let i = 0; i < codes; i++) {
        // Spread over the drain: one code per slot, at a random moment within it.
        const slot = (expectedDrainMs * 0.9) / codes;
        await new Promise((resolve) => setTimeout(resolve, slot * (0.5 + Math.random()) * (i === 0 ? 0.5 : 1)));
        const phone = `2547990${String(i).padStart(5, '0')}`;
        const code = String(100_000 + Math.floor(Math.random() * 900_000));
        queuedAt.set(phone, Date.now());
        await db.transaction((tx) =>
          queueSms(tx, { intent: 'portal.sign-in-code', dedupeKey: `bench-code:${i}`, to: phone, body: `Your Betdesk Tips sign-in code is ${code}. It works for 10 minutes.`, createdBy: null }),
        );
        codesQueued += 1;
      }
    })();

    const t = Date.now();
    const totals = { sent: 0, failed: 0, batches: 0 };
    // A failed drain waits for the codes' loop before the database closes under it.
    const drained = (async () => {
    for (;;) {
      const report = await dispatchQueuedSms(database, gateway, { batchSize, sendRate, maxRunMs: timeoutMs });
      totals.sent += report.sent;
      totals.failed += report.failed;
      totals.batches += report.batches;
      if (!report.more && codesQueued === codes && totals.sent + totals.failed >= queuedBroadcast + codes) break;
      if (!report.more) await new Promise((resolve) => setTimeout(resolve, 20)); // idle: a dispatcher's poll
      if (Date.now() - t > timeoutMs) break;
    }
    })();
    const [draining, queueing] = await Promise.allSettled([drained, queueCodes]);
    for (const outcome of [draining, queueing]) if (outcome.status === 'rejected') throw outcome.reason;
    const drain = Date.now() - t;

    const codeMs = [...queuedAt].map(([phone, at]) => (acceptedAt.get(phone) ?? Number.POSITIVE_INFINITY) - at).sort((a, b) => a - b);
    const received = fake.calls.flatMap((call) => call.to);
    const duplicates = received.length - new Set(received).size;
    const over2s = codeMs.filter((ms) => ms > 2000).length;
    const ms = (n: number) => (Number.isFinite(n) ? `${(n / 1000).toFixed(2)} s` : 'never');
    const figures: [string, string][] = [
      ['Database', label],
      ['Broadcast queued / batch size / send rate', `${queuedBroadcast.toLocaleString('en-KE')} / ${batchSize} / ${sendRate} messages a second`],
      ['Broadcast and codes drained in', seconds(drain)],
      ['Sign-in codes queued meanwhile', String(codes)],
      ['Code to gateway: median / p90 / p99 / max', `${ms(quantile(codeMs, 0.5))} / ${ms(quantile(codeMs, 0.9))} / ${ms(quantile(codeMs, 0.99))} / ${ms(codeMs.at(-1) ?? 0)}`],
      ['Codes over 2 s', `${over2s} of ${codes}`],
      ['Gateway requests made', fake.calls.length.toLocaleString('en-KE')],
      ['Duplicates received by the gateway', String(duplicates)],
    ];
    return { figures, ok: duplicates === 0 && received.length === queuedBroadcast + codes && codeMs.every(Number.isFinite), codeMs };
  } finally {
    await fake.close();
    await database.close();
    await drop();
  }
}

const printFigures = (title: string, figures: [string, string][]) => {
  const width = Math.max(...figures.map(([k]) => k.length));
  console.log(`\n${title}\n${figures.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n')}\n`);
};

async function main(): Promise<number> {
  const timeoutMs = Number(process.env.BENCH_TIMEOUT_S ?? 900) * 1000;
  const deadline = setTimeout(() => {
    console.error(`The bench did not finish within ${timeoutMs / 1000} s.`);
    process.exit(1);
  }, timeoutMs);
  let failed = false;
  const subscribers = Number(process.env.BENCH_SUBSCRIBERS ?? 100_000);
  if (subscribers > 0) {
    const result = await runSmsFanout({
      serverUrl: process.env.DATABASE_URL,
      subscribers,
      batchSize: Number(process.env.SMS_BATCH_SIZE ?? 1000),
      sendRate: Number(process.env.SMS_SEND_RATE ?? 10_000),
      timeoutMs,
      throughJobs: process.env.BENCH_THROUGH_JOBS === '1',
    });
    printFigures('SMS tips blast bench', result.figures);
    if (!result.ok) {
      console.error('FAILED: every subscriber must be queued once and sent exactly once.');
      failed = true;
    }
  }
  const codes = Number(process.env.BENCH_SIGNIN_CODES ?? 40);
  if (codes > 0) {
    // The configuration's defaults (SMS_BATCH_SIZE 500, SMS_SEND_RATE 100), as a install runs.
    const result = await runSignInDuringBroadcast({
      serverUrl: process.env.DATABASE_URL,
      broadcast: Number(process.env.BENCH_BROADCAST ?? 2000),
      codes,
      batchSize: Number(process.env.BENCH_SIGNIN_BATCH_SIZE ?? 500),
      sendRate: Number(process.env.BENCH_SIGNIN_SEND_RATE ?? 100),
      timeoutMs,
    });
    printFigures('Sign-in codes while a broadcast drains', result.figures);
    if (!result.ok) {
      console.error('FAILED: every code and broadcast message must reach the gateway exactly once.');
      failed = true;
    }
  }
  clearTimeout(deadline);
  return failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
