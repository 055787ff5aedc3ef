/**
 * npm run test:cluster (PostgreSQL only: DATABASE_URL names the server; a fresh database is made and
 * dropped). The production path of docs/OPERATIONS.md, run for real on this machine:
 *
 *   nginx (deploy/nginx/betdesk.conf.template) -> two API processes (jobs off) + one worker
 *   -> one PostgreSQL; SMS to a fake Africa's Talking that records what reaches it and when.
 *
 * While traffic flows through the proxy it kills one API process, sends 2,000 unique C2B
 * confirmations and then all of them again, and checks: every acknowledged payment is stored exactly
 * once; a session works through both processes; an SSE client behind the proxy hears a payment taken
 * by the other process; SMS are sent exactly once, by the worker; the gateway never gets more than
 * SMS_SEND_RATE messages in a second. It prints its figures (docs/performance.md).
 *
 * Three topologies: PostgreSQL directly; the same through PgBouncer (decision 072); and a primary
 * with a streaming replica the test makes itself (decision 073), whose processes read their
 * reports, exports and lists from the replica, read their own writes, and fall back to the primary
 * when the replica stops.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { renderNginxSite } from '../deploy/render-nginx.ts';
import { renderPgBouncer } from '../deploy/render-pgbouncer.ts';
import { startFakeAfricasTalking } from '../apps/api/src/integrations/sms/fake-africastalking.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const webDist = join(root, 'apps/web/dist');
const DIRECT_PAYMENTS = Number(process.env.CLUSTER_PAYMENTS ?? 2000);
/** Through PgBouncer the same checks on fewer payments: the pooler's path, not its speed, is tested. */
const POOLED_PAYMENTS = Number(process.env.CLUSTER_POOLED_PAYMENTS ?? 600);
/** PgBouncer's server connections in the pooled topology: fewer than the processes' pools together. */
const POOLER_SIZE = 6;
/** With a replica, fewer still: the reads' routing is tested, not the C2B path again. */
const REPLICA_PAYMENTS = Number(process.env.CLUSTER_REPLICA_PAYMENTS ?? 200);
const PG_BIN = '/usr/lib/postgresql/15/bin';
const CONCURRENCY = 20;
const SEND_RATE = 25;
const WEBHOOK_SECRET = `cluster-${randomBytes(12).toString('hex')}`;
/** The test's payers' phones: 2547990xxxxx, apart from the demo data's. */
const TEST_PREFIX = '254799';
const admin = { email: 'admin@cluster.test', password: 'cluster-admin-password' };

const failures: string[] = [];
function check(ok: boolean, what: string): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`Timed out waiting for ${what}`);
}

interface Proc {
  name: string;
  child: ChildProcess;
  log: string;
}

function startNode(name: string, script: string, env: NodeJS.ProcessEnv): Proc {
  const child = spawn('node', ['--import', 'tsx', script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc: Proc = { name, child, log: '' };
  const keep = (chunk: Buffer) => {
    proc.log = (proc.log + chunk.toString('utf8')).slice(-6000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return proc;
}

async function stop(proc: Proc, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.child.exitCode;
  const exited = once(proc.child, 'exit');
  proc.child.kill(signal);
  const [code] = (await exited) as [number | null];
  return code;
}

function c2b(transId: string, amount: number, account: string, phone: string) {
  return {
    TransactionType: 'Pay Bill',
    TransID: transId,
    TransTime: '20261125101010',
    TransAmount: amount.toFixed(2),
    BusinessShortCode: '600000',
    BillRefNumber: account,
    InvoiceNumber: '',
    OrgAccountBalance: '',
    ThirdPartyTransID: '',
    MSISDN: phone,
    FirstName: 'CLUSTER',
    MiddleName: '',
    LastName: 'PAYER',
  };
}

/**
 * PgBouncer (Debian's) on a free port in transaction mode, from deploy/pgbouncer's template, in front
 * of `server`'s database `dbName`. As root it drops to the postgres user, as Debian's unit does.
 */
async function startPgBouncer(work: string, dbName: string, server: URL): Promise<{ proc: Proc; url: string }> {
  const dir = join(work, 'pgbouncer');
  mkdirSync(dir, { recursive: true, mode: 0o777 });
  chmodSync(work, 0o755);
  chmodSync(dir, 0o777);
  const port = await freePort();
  const user = decodeURIComponent(server.username || 'postgres');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o644 });
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    renderPgBouncer({
      database: dbName,
      server: `${server.hostname}:${server.port || '5432'}`,
      port,
      poolSize: POOLER_SIZE,
      maxClientConn: 200,
      authType: 'trust',
      authFile: join(dir, 'userlist.txt'),
      logfile: join(dir, 'pgbouncer.log'),
      pidfile: join(dir, 'pgbouncer.pid'),
      adminUser: user,
    }),
    { mode: 0o644 },
  );
  const args = process.getuid?.() === 0 ? ['-u', 'postgres', join(dir, 'pgbouncer.ini')] : [join(dir, 'pgbouncer.ini')];
  const child = spawn('pgbouncer', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const proc: Proc = { name: 'pgbouncer', child, log: '' };
  const keep = (chunk: Buffer) => {
    proc.log = (proc.log + chunk.toString('utf8')).slice(-6000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${dbName}`;
  await waitFor(
    'pgbouncer',
    async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.end();
      return true;
    },
    20_000,
  );
  return { proc, url };
}

interface Replicated {
  primaryUrl: string;
  replicaPort: number;
  /** The replica's database `db`, as its superuser (trust). */
  replicaUrl(db: string): string;
  stopReplica(): void;
  stop(): void;
}

/** PostgreSQL 15's tools as the postgres user (they refuse root). */
function asPostgres(command: string, args: string[]): void {
  const [bin, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, command), ...args]] : [join(PG_BIN, command), args];
  const done = spawnSync(bin, argv, { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${done.stderr || done.stdout}`);
}

/**
 * A primary (wal_level=replica, a replication line for 127.0.0.1) and a streaming replica made from
 * it with `pg_basebackup -R`, each on a free port in a directory of the postgres user's.
 */
async function startReplicated(work: string): Promise<Replicated> {
  const dir = join(work, 'pg');
  mkdirSync(dir, { recursive: true });
  chmodSync(work, 0o755);
  if (process.getuid?.() === 0) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primary = join(dir, 'primary');
  const replica = join(dir, 'replica');
  asPostgres('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  appendFileSync(
    join(primary, 'postgresql.conf'),
    [
      `port = ${primaryPort}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${dir}'`,
      'wal_level = replica',
      'max_wal_senders = 4',
      'fsync = off',
      'max_connections = 200',
      '',
    ].join('\n'),
  );
  appendFileSync(join(primary, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\n');
  asPostgres('pg_ctl', ['-D', primary, '-l', join(dir, 'primary.log'), '-w', 'start']);
  asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replica, '-R', '-X', 'stream']);
  appendFileSync(join(replica, 'postgresql.conf'), `port = ${replicaPort}\nhot_standby = on\n`);
  asPostgres('pg_ctl', ['-D', replica, '-l', join(dir, 'replica.log'), '-w', 'start']);
  let replicaUp = true;
  const stopReplica = () => {
    if (replicaUp) asPostgres('pg_ctl', ['-D', replica, '-m', 'fast', '-w', 'stop']);
    replicaUp = false;
  };
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaPort,
    replicaUrl: (db) => `postgres://postgres@127.0.0.1:${replicaPort}/${db}`,
    stopReplica,
    stop() {
      try {
        stopReplica();
      } finally {
        asPostgres('pg_ctl', ['-D', primary, '-m', 'fast', '-w', 'stop']);
      }
    },
  };
}

/**
 * One topology's run on a fresh database. `pgbouncer`: the processes' DATABASE_URL is a PgBouncer in
 * transaction mode (deploy/pgbouncer's template, Debian's 1.18, so no named prepared statements) and
 * DATABASE_DIRECT_URL is PostgreSQL itself (LISTEN, migrations).
 */
async function runTopology(topology: 'direct' | 'pgbouncer' | 'replica', server: string, replicated?: Replicated): Promise<void> {
  const pooled = topology === 'pgbouncer';
  const PAYMENTS = pooled ? POOLED_PAYMENTS : replicated ? REPLICA_PAYMENTS : DIRECT_PAYMENTS;
  const SUBSCRIBING = Math.round(PAYMENTS / 10); // these buy a package: a receipt and the day's tip by SMS
  const dbName = `betdesk_cluster_${randomBytes(4).toString('hex')}`;
  const adminDb = new pg.Client({ connectionString: server });
  await adminDb.connect();
  await adminDb.query(`create database ${dbName}`);
  await adminDb.end();
  const url = new URL(server);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });

  const work = mkdtempSync(join(tmpdir(), 'betdesk-cluster-'));
  const procs: Proc[] = [];
  let nginx: ChildProcess | null = null;
  let pgbouncer: Proc | null = null;
  const gateway = await startFakeAfricasTalking({ username: 'cluster', apiKey: 'cluster-key' });
  const sentAt: { at: number; recipients: number }[] = [];
  gateway.onCall = (call) => {
    sentAt.push({ at: Date.now(), recipients: call.to.length });
  };

  try {
    const [api1Port, api2Port, proxyPort] = [await freePort(), await freePort(), await freePort()];
    // The pooled topology's PgBouncer, from the deployed template (deploy/pgbouncer).
    let processesUrl = databaseUrl;
    if (pooled) {
      const started = await startPgBouncer(work, dbName, new URL(server));
      pgbouncer = started.proc;
      processesUrl = started.url;
    }
    const common: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: processesUrl,
      DATABASE_DIRECT_URL: databaseUrl,
      DATABASE_PREPARED_STATEMENTS: pooled ? '0' : '1',
      DATABASE_PROCESSES: '3',
      DATABASE_POOLER_CONNECTIONS: String(POOLER_SIZE),
      ...(replicated ? { DATABASE_REPLICA_URL: replicated.replicaUrl(dbName) } : {}),
      DATA_DIR: join(work, 'data'),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SECRETS_KEY: randomBytes(32).toString('hex'),
      WEBHOOK_SECRET,
      TRUST_PROXY: '1',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      SEED_DEMO: '1',
      REQUIRE_ADMIN_2FA: '0',
      SMS_PROVIDER: 'africastalking',
      AT_USERNAME: 'cluster',
      AT_API_KEY: 'cluster-key',
      AT_BASE_URL: gateway.url,
      SMS_SEND_RATE: String(SEND_RATE),
    };
    const apiEnv = (port: number): NodeJS.ProcessEnv => ({ ...common, PORT: String(port), JOBS: 'off' });

    // The first API process migrates and seeds; the others start on a ready database.
    const bootStarted = Date.now();
    const api1 = startNode('api-1', 'apps/api/src/main.ts', apiEnv(api1Port));
    procs.push(api1);
    await waitFor('api-1', async () => (await fetch(`http://127.0.0.1:${api1Port}/api/health`)).ok, 180_000);
    const api2 = startNode('api-2', 'apps/api/src/main.ts', apiEnv(api2Port));
    const worker = startNode('worker', 'apps/api/src/worker.ts', common);
    procs.push(api2, worker);
    await waitFor('api-2', async () => (await fetch(`http://127.0.0.1:${api2Port}/api/health`)).ok);
    console.log(`booted two API processes and a worker in ${((Date.now() - bootStarted) / 1000).toFixed(1)} s`);

    mkdirSync(join(work, 'nginx'), { recursive: true });
    const site = renderNginxSite({ api: [`127.0.0.1:${api1Port}`, `127.0.0.1:${api2Port}`], webDist, port: proxyPort });
    writeFileSync(join(work, 'nginx/site.conf'), site);
    const modules = ['ngx_http_brotli_filter_module.so', 'ngx_http_brotli_static_module.so']
      .map((m) => `load_module /usr/lib/nginx/modules/${m};`)
      .join('\n');
    writeFileSync(
      join(work, 'nginx/nginx.conf'),
      `${modules}
daemon off;
pid ${work}/nginx/nginx.pid;
error_log ${work}/nginx/error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path ${work}/nginx/body;
  proxy_temp_path ${work}/nginx/proxy;
  fastcgi_temp_path ${work}/nginx/fastcgi;
  uwsgi_temp_path ${work}/nginx/uwsgi;
  scgi_temp_path ${work}/nginx/scgi;
  include ${work}/nginx/site.conf;
}
`,
    );
    nginx = spawn('nginx', ['-p', join(work, 'nginx'), '-c', join(work, 'nginx/nginx.conf')], { stdio: 'inherit' });
    const proxy = `http://127.0.0.1:${proxyPort}`;
    await waitFor('nginx', async () => (await fetch(`${proxy}/api/health`)).ok, 20_000);

    // Static assets come from disk, precompressed.
    const index = await (await fetch(`${proxy}/`)).text();
    const asset = /\/assets\/[^"]+\.js/.exec(index)?.[0];
    const assetRes = asset ? await fetch(`${proxy}${asset}`, { headers: { 'accept-encoding': 'br' } }) : null;
    check(assetRes?.headers.get('content-encoding') === 'br', 'nginx serves the built assets brotli-compressed');

    // A session made through the proxy works on both processes.
    const login = await fetch(`${proxy}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    const onEach = await Promise.all(
      [api1Port, api2Port].map((port) => fetch(`http://127.0.0.1:${port}/api/dashboard`, { headers: auth }).then((r) => r.status)),
    );
    check(onEach.every((s) => s === 200), `a session made through the proxy works on both API processes (${onEach.join(', ')})`);

    // An SSE client behind the proxy hears payments taken by each process.
    const heard = new Set<string>();
    const sse = new AbortController();
    const stream = fetch(`${proxy}/api/events`, { headers: auth, signal: sse.signal }).then(async (res) => {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        for (const account of decoder.decode(value).match(/LIVE\d/g) ?? []) heard.add(account);
      }
    }).catch(() => undefined);
    await sleep(500);
    const hook = (base: string) => `${base}/api/hooks/c2b/confirmation/${WEBHOOK_SECRET}`;
    for (const [i, port] of [api1Port, api2Port].entries()) {
      await fetch(hook(`http://127.0.0.1:${port}`), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(c2b(`SSE000000${i}`, 10, `LIVE${i}`, '254700000000')),
      });
    }
    await waitFor('the live payment events', async () => heard.size === 2, 15_000).catch(() => undefined);
    check(heard.size === 2, `an SSE client behind the proxy hears the payments taken by both processes (${heard.size}/2)`);
    sse.abort();
    await stream;

    // The package a subscribing payer buys: the cheapest SMS package of a category.
    const pkg = (
      await db.query<{ code: string; price: string }>(
        `select c.code, p.price_cents::text as price from price_packages p join bet_categories c on c.id = p.bet_category_id
         where p.medium = 'sms' order by p.price_cents, p.id limit 1`,
      )
    ).rows[0]!;
    const payments = Array.from({ length: PAYMENTS }, (_, i) => {
      const transId = `CLU${String(i).padStart(7, '0')}`;
      const phone = `${TEST_PREFIX}${String(i).padStart(6, '0')}`;
      return i < SUBSCRIBING
        ? c2b(transId, Number(pkg.price) / 100, pkg.code, phone)
        : c2b(transId, 50 + (i % 7), `NOACCOUNT${i}`, phone);
    });

    // Daraja retries a confirmation it got no answer to; so does this client (up to 10 times).
    const latencies: number[] = [];
    let retries = 0;
    let acknowledged = 0;
    async function deliver(body: ReturnType<typeof c2b>): Promise<void> {
      for (let attempt = 0; attempt < 10; attempt++) {
        const started = performance.now();
        const res = await fetch(hook(proxy), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).catch(() => null);
        const answer = res?.ok ? ((await res.json()) as { ResultCode?: unknown }) : null;
        if (answer && String(answer.ResultCode) === '0') {
          latencies.push(performance.now() - started);
          acknowledged++;
          return;
        }
        retries++;
        await sleep(100 * (attempt + 1));
      }
      throw new Error(`${body.TransID} was never acknowledged`);
    }
    async function send(all: ReturnType<typeof c2b>[], killAt: number | null): Promise<number> {
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < all.length) {
            const i = next++;
            if (i === killAt) {
              console.log(`killing api-2 (SIGKILL) after ${i} confirmations`);
              api2.child.kill('SIGKILL');
            }
            await deliver(all[i]!);
          }
        }),
      );
      return (performance.now() - started) / 1000;
    }
    // What reaches PostgreSQL itself while the traffic flows: through PgBouncer, at most its pool,
    // the processes' LISTEN connections and this test's own two.
    let serverConnections = 0;
    const sampling = setInterval(() => {
      void db
        .query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = $1 and backend_type = 'client backend'`, [dbName])
        .then(({ rows }) => {
          serverConnections = Math.max(serverConnections, rows[0]!.n);
        }, () => undefined);
    }, 250);
    const firstSeconds = await send(payments, Math.floor(PAYMENTS / 4));
    const firstAcknowledged = acknowledged;
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
    console.log(
      `${PAYMENTS} confirmations through nginx at concurrency ${CONCURRENCY} with one API process killed: ` +
        `${(PAYMENTS / firstSeconds).toFixed(0)}/s, p99 ${p99.toFixed(0)} ms, ${retries} retried`,
    );
    const secondSeconds = await send(payments, null);
    clearInterval(sampling);
    console.log(`the same ${PAYMENTS} again on the one process left: ${(PAYMENTS / secondSeconds).toFixed(0)}/s`);
    console.log(`connections on PostgreSQL itself during the traffic: at most ${serverConnections}`);
    if (pooled) {
      const bound = POOLER_SIZE + 3 + 2;
      check(serverConnections > 0 && serverConnections <= bound, `through PgBouncer, PostgreSQL saw at most its pool, the listeners and the test's own (${serverConnections} ≤ ${bound})`);
    }
    check(firstAcknowledged === PAYMENTS && acknowledged === 2 * PAYMENTS, `every confirmation was acknowledged (${acknowledged}/${2 * PAYMENTS})`);
    const stored = (
      await db.query<{ n: string; distinct_ids: string }>(
        `select count(*)::text as n, count(distinct trans_id)::text as distinct_ids from mpesa_payments where trans_id like 'CLU%'`,
      )
    ).rows[0]!;
    check(Number(stored.n) === PAYMENTS && Number(stored.distinct_ids) === PAYMENTS, `each payment stored exactly once (${stored.n} rows, ${stored.distinct_ids} receipts)`);

    // SMS: every message the payments caused is sent once, by the worker, within the shared rate.
    const smsStarted = Date.now();
    await waitFor(
      'the SMS outbox to drain',
      async () => {
        const { rows } = await db.query<{ n: string }>(
          `select count(*)::text as n from sms_messages where status in ('queued', 'sending') and recipient like '${TEST_PREFIX}%'`,
        );
        return Number(rows[0]!.n) === 0;
      },
      600_000,
    );
    const sms = (
      await db.query<{ sent: string; failed: string }>(
        `select count(*) filter (where status in ('sent', 'delivered'))::text as sent,
                count(*) filter (where status = 'failed')::text as failed
         from sms_messages where recipient like '${TEST_PREFIX}%'`,
      )
    ).rows[0]!;
    const ours = gateway.accepted.filter((a) => a.number.startsWith(`+${TEST_PREFIX}`));
    const accepted = ours.length;
    const distinctAccepted = new Set(ours.map((a) => `${a.number}|${a.message}`)).size;
    check(Number(sms.failed) === 0, `no SMS of the test failed (${sms.failed})`);
    check(Number(sms.sent) >= SUBSCRIBING, `the subscribing payments' SMS went out (${sms.sent} sent)`);
    check(accepted === Number(sms.sent), `the gateway took each sent message once (${accepted} taken, ${sms.sent} sent)`);
    check(distinctAccepted === accepted, `no message reached the gateway twice (${distinctAccepted} distinct of ${accepted})`);
    const perSecond = new Map<number, number>();
    for (const call of sentAt) {
      const second = Math.floor(call.at / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + call.recipients);
    }
    const busiest = Math.max(0, ...perSecond.values());
    const seconds = (Date.now() - smsStarted) / 1000;
    console.log(`SMS: ${accepted} messages in ${sentAt.length} gateway calls; busiest second ${busiest} (SMS_SEND_RATE ${SEND_RATE}); drained ${seconds.toFixed(1)} s after the traffic`);
    check(busiest <= SEND_RATE, `the gateway never got more than SMS_SEND_RATE messages in a second (busiest ${busiest})`);

    // A CSV export streams its rows through a server-side cursor: through PgBouncer too.
    const csv = await fetch(`${proxy}/api/mpesa-transactions/export`, { headers: auth });
    const csvLines = csv.ok ? (await csv.text()).split('\n').filter((line) => /\bCLU\d{7}\b/.test(line)).length : -1;
    check(csvLines === PAYMENTS, `the payments' CSV export streams every payment (${csvLines}/${PAYMENTS})`);

    if (replicated) await replicaChecks(replicated, dbName, proxy, auth, PAYMENTS);

    if (topology === 'direct') {
      // The connection budget refuses a start that would take more than the server allows.
      const greedy = startNode('over-budget', 'apps/api/src/main.ts', { ...apiEnv(await freePort()), DATABASE_PROCESSES: '500' });
      const [code] = (await once(greedy.child, 'exit')) as [number | null];
      check(
        code === 1 && greedy.log.includes('Connection budget exceeded') && greedy.log.includes('DATABASE_POOL_SIZE'),
        `an over-committed start (DATABASE_PROCESSES=500) is refused with the variables named (exit ${code})`,
      );
    }

    // SIGTERM: the surviving API process and the worker stop cleanly.
    const codes = await Promise.all([stop(api1), stop(worker)]);
    check(codes.every((c) => c === 0), `SIGTERM stops the API process and the worker with exit code 0 (${codes.join(', ')})`);
  } catch (error) {
    failures.push((error as Error).message);
    console.error(error);
    for (const proc of [...procs, ...(pgbouncer ? [pgbouncer] : [])]) console.error(`--- ${proc.name} log ---\n${proc.log}`);
  } finally {
    for (const proc of procs) await stop(proc, 'SIGKILL');
    if (pgbouncer) await stop(pgbouncer, 'SIGINT');
    if (nginx && nginx.exitCode === null) {
      const exited = once(nginx, 'exit');
      nginx.kill('SIGQUIT');
      await exited;
    }
    await gateway.close();
    await db.end();
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    await c.query(`drop database if exists ${dbName} with (force)`);
    await c.end();
    rmSync(work, { recursive: true, force: true });
  }
}

/** A GET through the proxy as `auth`; its status and body. */
async function get(proxy: string, path: string, auth: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${proxy}${path}`, { headers: auth });
  return { status: res.status, text: await res.text() };
}

/**
 * The replica topology's own checks (decision 073): an export and a report served by the replica
 * (their statements seen in the replica's pg_stat_activity), read-your-writes while the replica's
 * replay is paused, and every read still answered once the replica is stopped.
 */
async function replicaChecks(replicated: Replicated, dbName: string, proxy: string, auth: Record<string, string>, payments: number): Promise<void> {
  const onReplica = new pg.Client({ connectionString: replicated.replicaUrl(dbName) });
  await onReplica.connect();
  const seenOnReplica = async (pattern: string) =>
    (
      await onReplica.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and query ilike $2`,
        [dbName, pattern],
      )
    ).rows[0]!.n;
  try {
    // The replica has everything the traffic wrote (it streams in milliseconds here).
    await waitFor(
      'the replica to have the payments',
      async () => (await onReplica.query<{ n: number }>(`select count(*)::int as n from mpesa_payments where trans_id like 'CLU%'`)).rows[0]!.n === payments,
      30_000,
    );
    const csv = await get(proxy, '/api/mpesa-transactions/export', auth);
    const fromReplica = await seenOnReplica('%mpesa_payments%');
    check(csv.status === 200 && fromReplica > 0, `the payments' export was streamed by the replica (${fromReplica} of its connections ran it)`);
    const report = await get(proxy, '/api/reports/income?from=2026-11-01&to=2026-11-30', auth);
    const auditOnReplica = await get(proxy, '/api/audit', auth);
    check(report.status === 200 && auditOnReplica.status === 200, `a report and the audit log answer with the replica in use (${report.status}, ${auditOnReplica.status})`);

    // Read-your-writes: with the replica's replay paused, a session that creates a client lists it
    // at once (its reads go to the primary, on whichever process), while a session that wrote
    // nothing still reads the replica, which does not have it yet.
    const other = await fetch(`${proxy}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
    const otherAuth = { authorization: `Bearer ${((await other.json()) as { token: string }).token}` };
    await onReplica.query('select pg_wal_replay_pause()');
    const name = `Replica Reader ${randomBytes(3).toString('hex')}`;
    const phone = `07${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const created = await fetch(`${proxy}/api/clients/store`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name, phone, maximum_stake: 1000, passwords: [] }),
    });
    const search = `/api/clients?search=${encodeURIComponent(name)}`;
    const reads = await Promise.all([1, 2, 3, 4].map(() => get(proxy, search, auth)));
    const ownSees = reads.filter((r) => r.status === 200 && r.text.includes(name)).length;
    check(created.status === 200 && ownSees === reads.length, `the writing session lists its new client at once, on both processes (${ownSees}/${reads.length})`);
    const others = await get(proxy, search, otherAuth);
    check(others.status === 200 && !others.text.includes(name), 'a session that wrote nothing reads the paused replica (it has not the client yet)');
    await onReplica.query('select pg_wal_replay_resume()');
    await waitFor('the replica to replay the client', async () => (await get(proxy, search, otherAuth)).text.includes(name), 30_000);
    check(true, 'once the replica has replayed past the write, the other session lists the client too');

    // The replica stops: reads fall back to the primary, nothing fails.
    await onReplica.end().catch(() => undefined);
    replicated.stopReplica();
    await sleep(1500); // past each process's cached state of the replica
    const after = await Promise.all([
      get(proxy, '/api/mpesa-transactions/export', auth),
      get(proxy, '/api/reports/income?from=2026-11-01&to=2026-11-30', auth),
      get(proxy, '/api/audit', auth),
      get(proxy, search, otherAuth),
      get(proxy, '/api/mpesa-transactions/export', otherAuth),
    ]);
    const exported = after[0]!.text.split('\n').filter((line) => /\bCLU\d{7}\b/.test(line)).length;
    check(
      after.every((r) => r.status === 200) && exported === payments,
      `with the replica stopped every read answers from the primary (${after.map((r) => r.status).join(', ')}; export ${exported}/${payments})`,
    );
  } finally {
    await onReplica.end().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const server = process.env.DATABASE_URL;
  if (!server) {
    console.error('npm run test:cluster needs DATABASE_URL (a PostgreSQL server; a fresh database is created on it).');
    return 2;
  }
  if (spawnSync('nginx', ['-v']).status !== 0) {
    console.error('npm run test:cluster needs nginx (apt-get install nginx libnginx-mod-http-brotli-filter libnginx-mod-http-brotli-static).');
    return 2;
  }
  if (spawnSync('pgbouncer', ['--version']).status !== 0) {
    console.error('npm run test:cluster needs pgbouncer (apt-get install pgbouncer).');
    return 2;
  }
  if (!existsSync(join(webDist, 'index.html'))) {
    if (spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' }).status !== 0) return 1;
  }

  const only = process.env.CLUSTER_TOPOLOGIES?.split(',');
  const titles = {
    direct: 'nginx -> two API processes + a worker -> PostgreSQL',
    pgbouncer: 'the same through PgBouncer (transaction mode) -> PostgreSQL',
    replica: 'the same -> a primary made by the test, reading work on its streaming replica',
  };
  for (const topology of ['direct', 'pgbouncer', 'replica'] as const) {
    if (only && !only.includes(topology)) continue;
    const started = Date.now();
    console.log(`\n== topology: ${titles[topology]}`);
    if (topology === 'replica') {
      const work = mkdtempSync(join(tmpdir(), 'betdesk-replica-'));
      let replicated: Replicated | null = null;
      try {
        replicated = await startReplicated(work);
        await runTopology(topology, replicated.primaryUrl, replicated);
      } catch (error) {
        failures.push((error as Error).message);
        console.error(error);
      } finally {
        try {
          replicated?.stop();
        } catch (error) {
          console.error(error);
        }
        rmSync(work, { recursive: true, force: true });
      }
    } else {
      await runTopology(topology, server);
    }
    console.log(`topology ${topology}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  console.log(failures.length ? `\n${failures.length} check(s) failed` : '\nThe cluster checks passed.');
  return failures.length ? 1 : 0;
}

process.exit(await main());
