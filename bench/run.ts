/**
 * npm run bench -- --scale S [--generate] [--only pattern] [--out file.md]: the reference-scale suite
 * of docs/performance.md against the PostgreSQL database of DATABASE_URL.
 *
 *   --generate            drop and recreate the database, fill it at --scale (bench/generate.ts) and
 *                         refresh the summaries (as `npm run db:refresh-summaries` does)
 *   --refresh-summaries   refresh the summaries of an existing bench database before measuring
 *   --only pattern        run only the scenarios whose name contains it (case-insensitive), e.g.
 *                         mpesa, export, ingest, sms-fanout; several separated by | ("dashboard|bets/open"),
 *                         and !text leaves out what contains it ("GET /api/|!export")
 *   --repeat N            measured requests per scenario (default 20, after one warm-up)
 *   --budget S            seconds one scenario may take before it stops repeating (default 5)
 *   --export-timeout S    an export is cut off after this long (default 120)
 *   --ingest N            C2B confirmations of the ingestion scenario (default 10,000 x scale, at least 500)
 *   --api-processes N     API processes the ingestion scenario sends to, each its own (default 1;
 *                         BENCH_API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles them;
 *                         they queue their jobs in pg-boss as the cluster's do, BENCH_JOBS=none not)
 *   --tax-backlog N       invoices queued and drained by the tax backlog scenario (default 100,000; --only tax)
 *   --out file.md         also write the markdown report there
 *   --staff K             the staff user the reads run for: big (default), rare, none or other
 *   --shape S             with --generate, the business's shape: reference (default), interleaved or block
 *                         (and --clients, --open-bets, --payments, --names; see bench/generate.ts)
 *
 * The API runs in this process (buildApp, listening on loopback, no jobs) and is called over HTTP as
 * the browser does; each page's bare-SQL floor is measured on its own connection in the same run.
 * A scenario that answers an HTTP error is reported as such and the suite goes on.
 */
import http from 'node:http';
import { execSync, fork } from 'node:child_process';
import { randomBytes, createHash } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import pino from 'pino';
import type { Role } from '@betdesk/contract';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase, type Database } from '../apps/api/src/db/client.ts';
import type { AppDeps } from '../apps/api/src/deps.ts';
import { buildApp } from '../apps/api/src/app.ts';
import { logGateway } from '../apps/api/src/integrations/sms/log-gateway.ts';
import { noJobs, startJobs, type Jobs } from '../apps/api/src/jobs/jobs.ts';
import { jobHandlers } from '../apps/api/src/job-handlers.ts';
import { ensureSettingDefaults } from '../apps/api/src/modules/settings/service.ts';
import { BENCH_ABSENT_STAFF_EMAIL, BENCH_ADMIN_EMAIL, BENCH_OTHER_STAFF_EMAIL, BENCH_PASSWORD, BENCH_RARE_STAFF_EMAIL, BENCH_STAFF_EMAIL } from './accounts.ts';

/**
 * Which staff user the suite signs in as: the big one (5 % of the clients: every 20th id, or the oldest
 * block in the block shape), the rare one (1 %), one with none, or another of the 20 (bench-staff-1: in the
 * interleaved shape every 20th id from 1, in the block shape the second block).
 */
const STAFF_EMAILS = { big: BENCH_STAFF_EMAIL, rare: BENCH_RARE_STAFF_EMAIL, none: BENCH_ABSENT_STAFF_EMAIL, other: BENCH_OTHER_STAFF_EMAIL } as const;
type StaffKind = keyof typeof STAFF_EMAILS;
import { generate, refreshSummariesAfterBulkLoad, shapeFromArgs, type Shape } from './generate.ts';
import {
  allowed,
  exportScenarios,
  fixtureQueries,
  readScenarios,
  type Fixtures,
  type Params,
  type ReadScenario,
} from './scenarios.ts';
import { runSmsFanout } from './sms-fanout.ts';
import { measureIngestFloor } from './ingest-floor.ts';
import { cpuMeter, localPostmaster, splitCores, type CpuEach } from './cpu.ts';
import { measureTaxBacklog } from './tax-backlog.ts';

/**
 * The read targets (docs/performance.md), for the admin and for a staff member alike (they replace the first ones'
 * 30 ms / 10× floor / 300 ms: the floor ratio is still shown, not judged).
 */
export const TARGETS = {
  listP95Ms: 50,
  searchP95Ms: 100,
  bigPageP95Ms: 400,
  dashboardP95Ms: 50,
  dashboardBytes: 50_000,
  /** The track record of one category over two years (decision 020). */
  recordP95Ms: 50,
  /** Each retention figure over a year, and the cohort grid of 24 months (decision 043). */
  retentionP95Ms: 300,
  cohortsP95Ms: 500,
  maxBodyBytes: 2_000_000,
  exportRowsPerSecond: 100_000,
  /** Exports smaller than this are dominated by their fixed cost: their rate is shown, not judged. */
  exportRateJudgedFrom: 10_000,
  exportRssGrowthBytes: 100 * 1024 * 1024,
  ingestPerSecond: 500,
  ingestP99Ms: 100,
  ingestConcurrency: 20,
  /** The product's ingestion rate over the bare-SQL floor's, in the same run (decision 044). */
  ingestFloorRatio: 0.7,
  /** Decision 035: a day's backlog of invoices drains at this rate or more. */
  taxBacklogPerSecond: 200,
} as const;

export const WEBHOOK_SECRET = 'bench-webhook-secret-0123456789';

interface Options {
  url: string;
  scale: number;
  generate: boolean;
  refresh: boolean;
  only: string | undefined;
  repeat: number;
  budgetMs: number;
  exportTimeoutMs: number;
  ingest: number;
  /** API processes the ingestion scenario runs (each its own process, as `npm run serve`). */
  apiProcesses: number;
  /** Invoices queued for the tax backlog scenario. */
  taxBacklog: number;
  /** The ingestion scenario with the local database on half the cores and the API and pgbench on the other half. */
  splitCores: boolean;
  out: string | undefined;
  staff: StaffKind;
  /** The shape --generate fills the database with (bench/generate.ts --shape and its overrides). */
  shape: Shape;
}

function log(message: string) {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

// ---------------------------------------------------------------------------------------------
// Figures

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en-KE')) : '—');
const kb = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : bytes >= 1000 ? `${Math.round(bytes / 1000)} kB` : `${bytes} B`;
const int = (n: number) => Math.round(n).toLocaleString('en-KE');

// ---------------------------------------------------------------------------------------------
// HTTP

interface Answer {
  status: number;
  bytes: number;
  ms: number;
  body: Buffer;
}

class Client {
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  constructor(readonly base: string) {}

  request(method: 'GET' | 'POST', path: string, options: { token?: string; json?: unknown; keep?: boolean } = {}): Promise<Answer> {
    const payload = options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json));
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        `${this.base}${path}`,
        {
          method,
          agent: this.agent,
          headers: {
            accept: 'application/json',
            'x-requested-with': 'XMLHttpRequest',
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (options.keep !== false) chunks.push(chunk);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - started, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close() {
    this.agent.destroy();
  }
}

const query = (params: Params) =>
  Object.keys(params).length ? `?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}` : '';

function errorText(answer: Answer): string {
  let text = answer.body.toString('utf8').slice(0, 300);
  try {
    const parsed = JSON.parse(answer.body.toString('utf8')) as { message?: string };
    if (parsed.message) text = parsed.message;
  } catch {
    /* not JSON */
  }
  return `HTTP ${answer.status}: ${text.replace(/\s+/g, ' ').slice(0, 120)}`;
}

/** Rows of an answer: the length of its largest top-level array. */
function rowsOf(body: Buffer): number {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    return Math.max(0, ...Object.values(parsed).map((v) => (Array.isArray(v) ? v.length : 0)));
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Results

interface ReadResult {
  name: string;
  role: Role;
  perPage: number | null;
  page: number;
  n: number;
  p50: number;
  p95: number;
  bytes: number;
  rows: number;
  floorP50: number;
  floorP95: number;
  error?: string;
  verdict: string;
}

interface ExportResult {
  name: string;
  rows: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  rssGrowth: number;
  error?: string;
  verdict: string;
}

interface OtherResult {
  name: string;
  figures: string;
  verdict: string;
}

const OK = '✅';
const NO = '❌';

function judgeRead(r: Omit<ReadResult, 'verdict'>, kind: ReadScenario['kind']): string {
  if (r.error) return `${NO} ${r.error}`;
  const misses: string[] = [];
  if (kind === 'record') {
    if (r.p95 > TARGETS.recordP95Ms) misses.push(`p95 > ${TARGETS.recordP95Ms} ms`);
  } else if (kind === 'retention' || kind === 'cohorts') {
    const target = kind === 'retention' ? TARGETS.retentionP95Ms : TARGETS.cohortsP95Ms;
    if (r.p95 > target) misses.push(`p95 > ${target} ms`);
  } else if (kind === 'dashboard') {
    if (r.p95 > TARGETS.dashboardP95Ms) misses.push(`p95 > ${TARGETS.dashboardP95Ms} ms`);
    if (r.bytes > TARGETS.dashboardBytes) misses.push(`body > ${TARGETS.dashboardBytes / 1000} kB`);
  } else if (r.perPage === 50) {
    const target = kind === 'search' ? TARGETS.searchP95Ms : TARGETS.listP95Ms;
    if (r.p95 > target) misses.push(`p95 > ${target} ms`);
  } else {
    if (r.p95 > TARGETS.bigPageP95Ms) misses.push(`p95 > ${TARGETS.bigPageP95Ms} ms`);
  }
  if (r.bytes > TARGETS.maxBodyBytes) misses.push(`body > ${TARGETS.maxBodyBytes / 1_000_000} MB`);
  return misses.length ? `${NO} ${misses.join(', ')}` : OK;
}

// ---------------------------------------------------------------------------------------------
// Measuring

/** Runs `once` a warm-up time, then up to `repeat` times within the budget (at least 3 when it can). */
async function sample(once: () => Promise<number>, repeat: number, budgetMs: number): Promise<number[]> {
  const warm = await once();
  if (warm > budgetMs) return [warm];
  const times: number[] = [];
  const started = performance.now();
  while (times.length < repeat && (times.length < 3 || performance.now() - started < budgetMs)) times.push(await once());
  return times.sort((a, b) => a - b);
}

async function measureRead(
  http: Client,
  sql: pg.Client,
  s: ReadScenario,
  role: Role,
  token: string,
  perPage: number | null,
  f: Fixtures,
  o: Options,
): Promise<ReadResult> {
  const page = s.page ?? 1;
  const params: Params = { ...(s.params?.(f, role) ?? {}), ...(perPage ? { page, perPage } : {}) };
  const path = `${s.endpoint.path}${query(params)}`;
  const base = { name: s.name, role, perPage, page, n: 0, p50: NaN, p95: NaN, bytes: 0, rows: 0, floorP50: NaN, floorP95: NaN };
  let last: Answer | undefined;
  let failed: Answer | undefined;
  let times: number[];
  try {
    times = await sample(
      async () => {
        const answer = await http.request('GET', path, { token });
        if (answer.status !== 200) failed ??= answer;
        last = answer;
        return answer.ms;
      },
      o.repeat,
      o.budgetMs,
    );
  } catch (error) {
    const result = { ...base, error: `request failed: ${error instanceof Error ? error.message : String(error)}` };
    return { ...result, verdict: judgeRead(result, s.kind) };
  }
  if (failed?.status === 404 && s.oneClient && role === 'staff' && f.staffHasNoClient) {
    // The scope holding: another staff member's client is not found.
    return { ...base, n: 1, verdict: `${OK} 404 (not their client), as it must` };
  }
  if (failed) {
    const result = { ...base, error: errorText(failed) };
    return { ...result, verdict: judgeRead(result, s.kind) };
  }
  const rows = rowsOf(last!.body);
  const result: Omit<ReadResult, 'verdict'> = {
    ...base,
    n: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    bytes: last!.bytes,
    rows,
  };
  if (s.floor) {
    const text = s.floor({ f, role, limit: perPage ?? Math.max(rows, 1), offset: perPage ? (page - 1) * perPage : 0 });
    try {
      const floor = await sample(
        async () => {
          const t = performance.now();
          await sql.query(text);
          return performance.now() - t;
        },
        Math.max(o.repeat, times.length),
        o.budgetMs,
      );
      result.floorP50 = percentile(floor, 50);
      result.floorP95 = percentile(floor, 95);
    } catch (error) {
      result.error = `floor SQL failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return { ...result, verdict: judgeRead(result, s.kind) };
}

/** Streams an export, counting its lines, while sampling this process's RSS every 20 ms. */
async function measureExport(client: Client, path: string, token: string, timeoutMs: number): Promise<Omit<ExportResult, 'name' | 'verdict'>> {
  global.gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const started = performance.now();
  try {
    return await new Promise((resolve) => {
      let lines = 0;
      let bytes = 0;
      let status = 0;
      const finish = (error?: string) => {
        const seconds = (performance.now() - started) / 1000;
        const rows = Math.max(0, lines - 1);
        peak = Math.max(peak, process.memoryUsage.rss());
        resolve({ rows, bytes, seconds, rowsPerSecond: rows / seconds, rssGrowth: peak - baseline, ...(error ? { error } : {}) });
      };
      const req = http.get(
        `${client.base}${path}`,
        { agent: client.agent, headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' } },
        (res) => {
          status = res.statusCode ?? 0;
          const errorBody: Buffer[] = [];
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (status !== 200) errorBody.push(chunk);
            for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
          });
          res.on('end', () =>
            finish(status === 200 ? undefined : errorText({ status, bytes, ms: 0, body: Buffer.concat(errorBody) })),
          );
          res.on('error', (e) => finish(`stream broke: ${e.message}`));
        },
      );
      req.setTimeout(timeoutMs, () => {
        req.destroy();
        finish(`cut off after ${timeoutMs / 1000} s`);
      });
      req.on('error', (e) => {
        if (!/socket hang up|aborted/.test(e.message)) finish(`request failed: ${e.message}`);
      });
    });
  } finally {
    clearInterval(timer);
  }
}

function judgeExport(r: Omit<ExportResult, 'name' | 'verdict'>): string {
  if (r.error) return `${NO} ${r.error}`;
  const misses: string[] = [];
  if (r.rows >= TARGETS.exportRateJudgedFrom && r.rowsPerSecond < TARGETS.exportRowsPerSecond) misses.push(`< ${int(TARGETS.exportRowsPerSecond)} rows/s`);
  if (r.rssGrowth > TARGETS.exportRssGrowthBytes) misses.push('RSS growth > 100 MB');
  return misses.length ? `${NO} ${misses.join(', ')}` : r.rows >= TARGETS.exportRateJudgedFrom ? OK : `${OK} (rate not judged under ${int(TARGETS.exportRateJudgedFrom)} rows)`;
}

/** A subscriber's phone as generate.ts derives it (pg_temp.subscriber_phone). */
function subscriberPhone(k: number): string {
  return `${k % 5 === 0 ? '2541' : '2547'}${String((k * 104729 + 13) % 100_000_000).padStart(8, '0')}`;
}
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function darajaTime(date: Date): string {
  const t = new Date(date.getTime() + 3 * 3600_000); // Africa/Nairobi, UTC+3 all year
  return t.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/**
 * C2B confirmations through the real webhook route (with its secret) at concurrency 20: unique
 * receipts, one in ten sent twice as Daraja's retries are; then every receipt must be stored once.
 */
async function measureIngestion(
  clients: Client[],
  sql: pg.Client,
  count: number,
  subscribers: number,
  codes: { code: string; priceCents: number | null }[],
  apiPids: number[],
  /** The local database's postmaster (its CPU is measured too), null when it is elsewhere. */
  postmaster: number | null,
): Promise<OtherResult & { perSecond: number; seconds: number } & CpuEach> {
  const run = randomBytes(3).toString('hex').toUpperCase().slice(0, 4);
  const receipts = Array.from({ length: count }, (_, i) => `Z${run}${i.toString(36).toUpperCase().padStart(5, '0')}`);
  const sends = [...receipts.map((r, i) => ({ r, i })), ...receipts.filter((_, i) => i % 10 === 0).map((r, i) => ({ r, i: i * 10 }))];
  // Retries follow their original a little later, as Daraja's do.
  sends.sort((a, b) => a.i - b.i);
  const body = (receipt: string, i: number) => {
    const k = 1 + ((i * 7919) % subscribers);
    const kind = i % 4;
    const category = codes[i % codes.length] ?? { code: 'D2', priceCents: null };
    // Two in four buy the category's cheapest SMS package (a purchase, as the floor's); one in four
    // deposits KES 50 (a purchase where a package costs that, else credit and the price list by SMS).
    const amountCents = kind === 3 ? 13_700 : kind === 2 || category.priceCents === null ? 5_000 : category.priceCents;
    return {
      TransactionType: 'Pay Bill',
      TransID: receipt,
      TransTime: darajaTime(new Date()),
      TransAmount: (amountCents / 100).toFixed(2),
      BusinessShortCode: '600984',
      BillRefNumber: kind === 3 ? 'ACCOUNT' : category.code,
      InvoiceNumber: '',
      OrgAccountBalance: '',
      ThirdPartyTransID: '',
      // Three in four pay a tips code from a subscriber's phone (above); the fourth is a stranger (unclaimed).
      MSISDN: sha(kind === 3 ? `25479${String(i).padStart(7, '0')}` : subscriberPhone(k)),
      FirstName: 'BENCH',
      MiddleName: '',
      LastName: 'PAYER',
    };
  };
  const path = `/api/hooks/c2b/confirmation/${WEBHOOK_SECRET}`;
  const latencies: number[] = [];
  let errors = 0;
  let firstError = '';
  let next = 0;
  const started = performance.now();
  const meter = cpuMeter(apiPids, postmaster);
  await Promise.all(
    Array.from({ length: TARGETS.ingestConcurrency }, async (_, k) => {
      // Each of the 20 senders keeps to one API process, as nginx's keep-alive connections do.
      const client = clients[k % clients.length]!;
      while (next < sends.length) {
        const s = sends[next++]!;
        try {
          const answer = await client.request('POST', path, { json: body(s.r, s.i) });
          latencies.push(answer.ms);
          const ok = answer.status === 200 && (JSON.parse(answer.body.toString('utf8')) as { ResultCode?: number }).ResultCode === 0;
          if (!ok) {
            errors++;
            firstError ||= errorText(answer);
          }
        } catch (error) {
          errors++;
          firstError ||= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = meter.stop();
  latencies.sort((a, b) => a - b);
  const { rows } = await sql.query<{ distinct: number; stored: number }>(
    `select count(distinct trans_id)::int as distinct, count(*)::int as stored from mpesa_payments where trans_id = any($1)`,
    [receipts],
  );
  const lost = count - rows[0]!.distinct;
  const doubled = rows[0]!.stored - rows[0]!.distinct;
  const perSecond = sends.length / seconds;
  const p99 = percentile(latencies, 99);
  const misses: string[] = [];
  if (perSecond < TARGETS.ingestPerSecond) misses.push(`< ${TARGETS.ingestPerSecond}/s`);
  if (p99 > TARGETS.ingestP99Ms) misses.push(`p99 > ${TARGETS.ingestP99Ms} ms`);
  if (lost) misses.push(`${lost} lost`);
  if (doubled) misses.push(`${doubled} doubled`);
  if (errors) misses.push(`${errors} errors (${firstError})`);
  return {
    perSecond,
    seconds,
    name: `C2B confirmations, concurrency ${TARGETS.ingestConcurrency} (POST /api/hooks/c2b/confirmation/:secret)`,
    figures: `${int(sends.length)} requests (${int(count)} receipts + ${int(sends.length - count)} retries) in ${seconds.toFixed(1)} s: ` +
      `${int(perSecond)}/s, p50 ${ms(percentile(latencies, 50))} ms, p99 ${ms(p99)} ms, ${lost} lost, ${doubled} doubled` +
      (cpu.processMs === null ? '' : `; CPU per request: API ${(cpu.processMs / sends.length).toFixed(2)} ms`) +
      (cpu.databaseMs === null ? '' : `, PostgreSQL ${(cpu.databaseMs / sends.length).toFixed(2)} ms`) +
      (cpu.machineMs === null ? '' : `, whole machine ${(cpu.machineMs / sends.length).toFixed(2)} ms`),
    verdict: misses.length ? `${NO} ${misses.join(', ')}` : OK,
    machineCpuMsEach: cpu.machineMs === null ? null : cpu.machineMs / sends.length,
    databaseCpuMsEach: cpu.databaseMs === null ? null : cpu.databaseMs / sends.length,
  };
}

// ---------------------------------------------------------------------------------------------
// Suite

export async function bootApi(
  url: string,
  /**
   * jobs 'send': the API queues its jobs in pg-boss as an API process of the cluster does (JOBS=off:
   * a worker runs them), so a request pays for its nudges; 'none' (default): nudges are no-ops.
   */
  o: { migrate?: boolean; jobs?: 'none' | 'send' } = {},
): Promise<{ database: Database; deps: AppDeps; base: string; close(): Promise<void> }> {
  // As the server opens it (DATABASE_POOL_SIZE, default 10), so that a pool size can be compared.
  const database = await openDatabase({ url, poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  if (o.migrate !== false) {
    await database.migrate();
    await ensureSettingDefaults(database.db);
  }
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: '/tmp/betdesk-bench-data',
    SECRETS_KEY: '0'.repeat(64),
    WEBHOOK_SECRET,
    NODE_ENV: 'production',
    // The bench admin signs in with a password only; the second factor has its own tests.
    REQUIRE_ADMIN_2FA: '0',
    LOG_LEVEL: 'silent',
  });
  const jobsRef: { current: Jobs } = { current: noJobs };
  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    sms: logGateway(pino({ level: 'silent' }), 1_000_000),
    get jobs() {
      return jobsRef.current;
    },
  };
  if (o.jobs === 'send') {
    jobsRef.current = await startJobs(database, jobHandlers(deps), pino({ level: 'silent' }), { work: false, stopTimeoutMs: 1_000 });
  }
  const app = await buildApp(deps, { serveWeb: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    database,
    deps,
    base: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await jobsRef.current.stop();
      await database.close();
    },
  };
}

/**
 * N API processes as `npm run serve` runs them (bench/api-process.ts), for the ingestion scenario: the
 * bench's own client then does not share their event loops, and N = 2 is the runbook's deployment
 * (two API processes behind nginx, docs/OPERATIONS.md).
 */
async function startApiProcesses(url: string, n: number): Promise<{ clients: Client[]; pids: number[]; close(): Promise<void> }> {
  const children = Array.from({ length: n }, () =>
    fork(fileURLToPath(new URL('./api-process.ts', import.meta.url)), [], { env: { ...process.env, DATABASE_URL: url }, execArgv: [...process.execArgv, ...(process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean)], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const stopChildren = async () => {
    await Promise.all(
      children.map((child) => new Promise<void>((resolve) => {
        if (child.exitCode !== null || !child.connected) return resolve();
        child.once('exit', () => resolve());
        child.disconnect();
      })),
    );
  };
  try {
    const bases = await Promise.all(
      children.map((child) => new Promise<string>((resolve, reject) => {
        child.once('message', (m: { base?: string }) => (m.base ? resolve(m.base) : reject(new Error('an API process sent no address'))));
        child.once('exit', (code) => reject(new Error(`an API process exited (${code}) before listening`)));
      })),
    );
    const clients = bases.map((base) => new Client(base));
    return {
      clients,
      pids: children.map((child) => child.pid!),
      async close() {
        clients.forEach((c) => c.close());
        await stopChildren();
      },
    };
  } catch (error) {
    children.forEach((child) => child.kill());
    throw error;
  }
}

async function login(client: Client, email: string): Promise<string> {
  const answer = await client.request('POST', '/api/auth/login', { json: { email, password: BENCH_PASSWORD } });
  if (answer.status !== 200) throw new Error(`cannot sign in as ${email}: ${errorText(answer)} (was the database made by bench/generate.ts?)`);
  return (JSON.parse(answer.body.toString('utf8')) as { token: string }).token;
}

async function fixtures(sql: pg.Client, staffEmail: string): Promise<Fixtures> {
  /** The first row's column; a fixture the data lacks (a tiny scale) falls back rather than stopping the suite. */
  const one = async (text: string, column = 'id', fallback?: string | number) => {
    const { rows } = await sql.query<Record<string, unknown>>(text);
    if (rows[0]) return rows[0][column];
    if (fallback === undefined) throw new Error(`no fixture for: ${text.slice(0, 80)}`);
    return fallback;
  };
  const staffId = Number(await one(fixtureQueries.staffId(staffEmail)));
  const busyClientId = Number(await one(fixtureQueries.busyClientId));
  // A staff user with no clients asks for someone else's: the sub-lists must answer 404.
  const [staffClient] = (await sql.query<{ id: string }>(fixtureQueries.staffClientId(staffId))).rows;
  const staffClientId = staffClient ? Number(staffClient.id) : busyClientId;
  return {
    staffId,
    busyClientId,
    staffClientId,
    staffHasNoClient: !staffClient,
    smsClientId: Number(await one(fixtureQueries.smsClientId, 'id', busyClientId)),
    staffSmsClientId: Number(await one(fixtureQueries.staffSmsClientId(staffId), 'id', staffClientId)),
    busySubscriberId: Number(await one(fixtureQueries.busySubscriberId, 'id', 1)),
    surname: 'Otieno',
    phone: String(await one(fixtureQueries.phone, 'v', '0712345678')),
    receipt: String(await one(fixtureQueries.receipt, 'v', 'SAAAAAAAAA')),
    recordCategoryId: Number(await one(fixtureQueries.recordCategoryId, 'id', 1)),
  };
}

async function describeMachine(sql: pg.Client, o: Options): Promise<string[]> {
  const { rows: version } = await sql.query<{ v: string }>(`select current_setting('server_version') as v`);
  const { rows: sizes } = await sql.query<Record<string, string>>(`
    select (select count(*) from clients) as clients, (select count(*) from bets) as bets,
           (select count(*) from mpesa_payments) as payments, (select count(*) from tips_subscribers) as tips_subscribers,
           (select count(*) from subscriptions) as subscriptions, (select count(*) from sms_messages) as sms,
           (select count(*) from client_assignments a join users u on u.id = a.user_id where u.email = '${STAFF_EMAILS[o.staff]}') as staff_clients,
           pg_size_pretty(pg_database_size(current_database())) as size`);
  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
  } catch {
    /* not a checkout */
  }
  const cpu = cpus();
  return [
    `- Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit}, \`--scale ${o.scale}\`, ${o.repeat} requests per scenario after a warm-up (at most ${o.budgetMs / 1000} s each)`,
    `- Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, PostgreSQL ${version[0]!.v} on loopback; load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} at the start`,
    `- Database (${sizes[0]!.size}): ${Object.entries(sizes[0]!).filter(([k]) => k !== 'size').map(([k, v]) => `${k.replace('_', ' ')} ${int(Number(v))}`).join(', ')}`,
  ];
}

function report(head: string[], reads: ReadResult[], exports: ExportResult[], others: OtherResult[], baseline: string): string {
  const lines = ['## Reference-scale bench (`npm run bench`)', '', ...head, `- ${baseline}`, ''];
  if (reads.length) {
    lines.push(
      `Reads: p50/p95 of sequential requests; floor = the same page in bare SQL (p50); ratio = p50 / floor p50. Targets: perPage 50 p95 ≤ ${TARGETS.listP95Ms} ms, a search ≤ ${TARGETS.searchP95Ms} ms; perPage 2000 and unpaged lists p95 ≤ ${TARGETS.bigPageP95Ms} ms; dashboard p95 ≤ ${TARGETS.dashboardP95Ms} ms and ≤ ${TARGETS.dashboardBytes / 1000} kB; track record p95 ≤ ${TARGETS.recordP95Ms} ms; retention figures over a year p95 ≤ ${TARGETS.retentionP95Ms} ms, cohort grid of 24 months ≤ ${TARGETS.cohortsP95Ms} ms; no body > ${TARGETS.maxBodyBytes / 1_000_000} MB.`,
      '',
      '| scenario | as | perPage | n | p50 ms | p95 ms | rows | body | floor ms | ratio | target |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    );
    for (const r of reads) {
      const ratio = r.floorP50 > 0 && Number.isFinite(r.p50) ? `${(r.p50 / r.floorP50).toFixed(1)}×` : '—';
      lines.push(
        `| ${r.name} | ${r.role} | ${r.perPage ?? 'all'} | ${r.n} | ${ms(r.p50)} | ${ms(r.p95)} | ${r.n ? int(r.rows) : '—'} | ${r.n ? kb(r.bytes) : '—'} | ${ms(r.floorP50)} | ${ratio} | ${r.verdict} |`,
      );
    }
    lines.push('');
  }
  if (exports.length) {
    lines.push(
      `Exports (admin, streamed whole; RSS growth = peak resident memory of the bench process, API included, over its level before the export). Target: ≥ ${int(TARGETS.exportRowsPerSecond)} rows/s (judged from ${int(TARGETS.exportRateJudgedFrom)} rows), RSS growth ≤ 100 MB.`,
      '',
      '| export | rows | size | seconds | rows/s | RSS growth | target |',
      '|---|---:|---:|---:|---:|---:|---|',
    );
    for (const e of exports) {
      lines.push(`| ${e.name} | ${int(e.rows)} | ${kb(e.bytes)} | ${e.seconds.toFixed(1)} | ${int(e.rowsPerSecond)} | ${(e.rssGrowth / 2 ** 20).toFixed(0)} MB | ${e.verdict} |`);
    }
    lines.push('');
  }
  if (others.length) {
    lines.push('| scenario | figures | target |', '|---|---|---|');
    for (const x of others) lines.push(`| ${x.name} | ${x.figures} | ${x.verdict} |`);
    lines.push('');
  }
  const all = [...reads.map((r) => r.verdict), ...exports.map((e) => e.verdict), ...others.map((x) => x.verdict)];
  const missed = all.filter((v) => v.startsWith(NO)).length;
  lines.push(`${all.length - missed} of ${all.length} scenarios within target${missed ? `; ${missed} not` : ''}.`);
  return lines.join('\n');
}

export async function runSuite(o: Options): Promise<number> {
  const started = Date.now();
  if (o.generate) {
    log(`generating a fresh database at scale ${o.scale}`);
    await generate({ url: o.url, scale: o.scale, fresh: true, batch: 100_000, shape: o.shape });
  }
  const api = await bootApi(o.url);
  if (o.refresh && !o.generate) await refreshSummariesAfterBulkLoad(api.database);
  const sql = new pg.Client({ connectionString: o.url });
  await sql.connect();
  const client = new Client(api.base);
  const reads: ReadResult[] = [];
  const exports: ExportResult[] = [];
  const others: OtherResult[] = [];
  const parts = (o.only ?? '').toLowerCase().split('|').filter(Boolean);
  const [leftOut, kept] = [parts.filter((p) => p.startsWith('!')).map((p) => p.slice(1)), parts.filter((p) => !p.startsWith('!'))];
  const wanted = (name: string) => {
    const n = name.toLowerCase();
    return (kept.length === 0 || kept.some((p) => n.includes(p))) && !leftOut.some((p) => n.includes(p));
  };
  try {
    const { rows: empty } = await sql.query<{ n: number }>(`select count(*)::int as n from clients`);
    if (empty[0]!.n === 0) throw new Error('The database holds no clients: run with --generate (or npm run bench:generate) first.');
    // What an earlier run's ingestion left for the worker (its summary-compaction job folds the
    // deltas every minute in production; the bench runs no worker): folded first, so the reads see
    // the summaries a running business has.
    const { rows: folded } = await sql.query<{ n: string }>('select compact_summaries() as n');
    if (Number(folded[0]!.n) > 0) log(`folded ${int(Number(folded[0]!.n))} summary deltas an earlier run left for the worker`);
    const f = await fixtures(sql, STAFF_EMAILS[o.staff]);
    const tokens: Record<Role, string> = { admin: await login(client, BENCH_ADMIN_EMAIL), staff: await login(client, STAFF_EMAILS[o.staff]) };
    const head = await describeMachine(sql, o);
    head.forEach((line) => console.log(line));

    // The cost of any authenticated request: the floor under every API figure.
    const me = await sample(async () => (await client.request('POST', '/api/auth/me', { token: tokens.admin })).ms, 50, 5000);
    const baseline = `An authenticated request that reads no list (POST /api/auth/me) takes p50 ${ms(percentile(me, 50))} ms, p95 ${ms(percentile(me, 95))} ms.`;
    log(baseline);

    if (wanted('tax invoices backlog')) {
      log(`queueing ${int(o.taxBacklog)} tax invoices (a day of KRA being down) and draining them against the fake OSCU`);
      try {
        const post = async (path: string, json: object) => {
          const answer = await client.request('POST', path, { token: tokens.admin, json });
          return { status: answer.status, body: answer.body.toString('utf8') };
        };
        const b = await measureTaxBacklog(api.deps, sql, post, o.taxBacklog);
        const missed = [
          b.sent !== b.queued ? `${int(b.queued - b.sent)} not sent` : '',
          b.perSecond < TARGETS.taxBacklogPerSecond ? `< ${TARGETS.taxBacklogPerSecond}/s` : '',
        ].filter(Boolean);
        others.push({
          name: `Tax invoice backlog drained against the fake OSCU (bench/tax-backlog.ts, the job's transmitDueInvoices)`,
          figures: `${int(b.sent)} of ${int(b.queued)} queued sent (and ${int(b.others)} earlier sales) in ${b.seconds.toFixed(1)} s: ${int(b.perSecond)}/s; RSS ${Math.round(b.rssStartMb)} MB at the start, ${Math.round(b.rssPeakMb)} MB at the peak`,
          verdict: missed.length ? `${NO} ${missed.join(', ')}` : OK,
        });
      } catch (error) {
        others.push({ name: 'Tax invoice backlog', figures: '—', verdict: `${NO} ${error instanceof Error ? error.message : String(error)}` });
      }
      log(`${others.at(-1)!.figures} ${others.at(-1)!.verdict}`);
    }
    for (const s of readScenarios) {
      if (!wanted(s.name)) continue;
      for (const role of ['admin', 'staff'] as const) {
        if (!allowed(s.endpoint, role) || (s.roles && !s.roles.includes(role))) continue;
        for (const perPage of s.paged ? (s.perPages ?? [50, 2000]) : [null]) {
          const r = await measureRead(client, sql, s, role, tokens[role], perPage, f, o);
          reads.push(r);
          log(`${s.name} as ${role}${perPage ? ` perPage ${perPage}` : ''}: ${r.error ?? `p50 ${ms(r.p50)} ms, p95 ${ms(r.p95)} ms, ${kb(r.bytes)}, floor ${ms(r.floorP50)} ms`} ${r.verdict}`);
        }
      }
    }
    for (const e of exportScenarios) {
      if (!wanted(e.name)) continue;
      const path = `${e.endpoint.path}${query(e.params?.(f) ?? {})}`;
      const measured = await measureExport(client, path, tokens.admin, o.exportTimeoutMs);
      const result = { name: e.name, ...measured, verdict: judgeExport(measured) };
      exports.push(result);
      log(`${e.name}: ${int(result.rows)} rows in ${result.seconds.toFixed(1)} s (${int(result.rowsPerSecond)} rows/s), RSS +${(result.rssGrowth / 2 ** 20).toFixed(0)} MB ${result.verdict}`);
    }
    if (wanted('ingest C2B confirmations')) {
      // --split-cores: the database on half the cores, the API processes and pgbench on the other half.
      const postmaster = await localPostmaster(sql);
      if (o.splitCores && postmaster === null) throw new Error('--split-cores needs the database on this machine');
      const split = o.splitCores && postmaster !== null ? splitCores(postmaster) : null;
      const where = split ? `; PostgreSQL on cores ${split.database}, the API and pgbench on ${split.application}` : '';
      try {
        const { rows } = await sql.query<{ n: number }>(`select count(*)::int as n from tips_subscribers`);
        const { rows: codes } = await sql.query<{ code: string; price_cents: string | null }>(
          `select c.code, (select min(p.price_cents) from price_packages p where p.bet_category_id = c.id and p.medium = 'sms') as price_cents
             from bet_categories c order by c.id`,
        );
        log(`ingesting ${int(o.ingest)} C2B confirmations at concurrency ${TARGETS.ingestConcurrency} into ${o.apiProcesses} API process(es) of their own${process.env.BENCH_JOBS === 'none' ? ', their job nudges off (BENCH_JOBS=none)' : ', queuing their jobs'}`);
        let product: ({ perSecond: number; seconds: number } & CpuEach) | null = null;
        const apis = await startApiProcesses(o.url, o.apiProcesses);
        try {
          const measured = await measureIngestion(apis.clients, sql, o.ingest, rows[0]!.n, codes.map((c) => ({ code: c.code, priceCents: c.price_cents === null ? null : Number(c.price_cents) })), apis.pids, postmaster);
          product = measured;
          others.push({ name: `${measured.name}, ${o.apiProcesses} API process(es)${where}`, figures: measured.figures, verdict: measured.verdict });
        } catch (error) {
          others.push({ name: 'C2B confirmations', figures: '—', verdict: `${NO} ${error instanceof Error ? error.message : String(error)}` });
        } finally {
          await apis.close();
        }
        log(`${others.at(-1)!.figures} ${others.at(-1)!.verdict}`);
        // The floor right after, as long as the product ran (at least 10 s), on the same database.
        const floorSeconds = Math.max(10, Math.round(product?.seconds ?? 10));
        log(`the bare-SQL floor of a purchase (pgbench, concurrency ${TARGETS.ingestConcurrency}, ${floorSeconds} s)`);
        try {
          const floor = await measureIngestFloor(o.url, sql, TARGETS.ingestConcurrency, floorSeconds, postmaster);
          const ratio = product ? product.perSecond / floor.perSecond : null;
          const cpuRatio = product?.machineCpuMsEach && floor.machineCpuMsEach ? floor.machineCpuMsEach / product.machineCpuMsEach : null;
          // What the database alone does for a purchase of the floor and for a request of the product:
          // the rate ratio the product would reach if the API had cores of its own.
          const databaseRatio = product?.databaseCpuMsEach && floor.databaseCpuMsEach ? floor.databaseCpuMsEach / product.databaseCpuMsEach : null;
          others.push({
            name: `C2B ingestion against its floor (bench/ingest-floor.ts: the bare SQL of a tips purchase by pgbench, concurrency ${TARGETS.ingestConcurrency}${where})`,
            figures: `floor ${int(floor.perSecond)}/s (${int(floor.transactions)} purchases in ${floor.seconds} s); product ${product ? `${int(product.perSecond)}/s` : '—'}; ratio ${ratio === null ? '—' : ratio.toFixed(2)}` +
              (floor.machineCpuMsEach === null ? '' : `; whole machine's CPU per purchase: floor ${floor.machineCpuMsEach.toFixed(2)} ms`) +
              (cpuRatio === null ? '' : `, its ratio ${cpuRatio.toFixed(2)}`) +
              (floor.databaseCpuMsEach === null ? '' : `; PostgreSQL's CPU per purchase: floor ${floor.databaseCpuMsEach.toFixed(2)} ms`) +
              (databaseRatio === null ? '' : `, product ${product!.databaseCpuMsEach!.toFixed(2)} ms per request, their ratio ${databaseRatio.toFixed(2)}`),
            verdict: ratio !== null && ratio >= TARGETS.ingestFloorRatio ? OK : `${NO} ratio < ${TARGETS.ingestFloorRatio}`,
          });
        } catch (error) {
          others.push({ name: 'C2B ingestion floor', figures: '—', verdict: `${NO} ${error instanceof Error ? error.message : String(error)}` });
        }
        log(`${others.at(-1)!.figures} ${others.at(-1)!.verdict}`);
      } finally {
        split?.restore();
      }
    }
    if (wanted('sms-fanout SMS fan-out')) {
      const subscribers = Math.max(1000, Math.round(100_000 * o.scale));
      log(`SMS fan-out to ${int(subscribers)} subscribers (a fresh database on the same server)`);
      try {
        const fan = await runSmsFanout({ serverUrl: o.url, subscribers, batchSize: 1000, sendRate: 10_000, timeoutMs: 900_000 });
        const get = (key: string) => fan.figures.find(([k]) => k.startsWith(key))?.[1] ?? '';
        others.push({
          name: `SMS fan-out (bench/sms-fanout.ts) to ${int(subscribers)} subscribers`,
          figures: `queued in ${(fan.queueingMs / 1000).toFixed(2)} s (one INSERT … SELECT), drained in ${(fan.drainMs / 1000).toFixed(2)} s: ${int(fan.messagesPerSecond)} messages/s; sent/failed/retried/unconfirmed ${get('Sent /')}; ${fan.duplicates} duplicates`,
          verdict: fan.ok ? OK : `${NO} not every subscriber queued once and sent exactly once`,
        });
      } catch (error) {
        others.push({ name: 'SMS fan-out', figures: '—', verdict: `${NO} ${error instanceof Error ? error.message : String(error)}` });
      }
      log(`${others.at(-1)!.figures} ${others.at(-1)!.verdict}`);
    }
    const text = report(head, reads, exports, others, baseline);
    console.log(`\n${text}\n`);
    if (o.out) writeFileSync(o.out, `${text}\n`);
    log(`suite done in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
    return 0;
  } finally {
    client.close();
    await sql.end().catch(() => {});
    await api.close();
  }
}

function cli(): void {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: '1' },
      generate: { type: 'boolean', default: false },
      'refresh-summaries': { type: 'boolean', default: false },
      only: { type: 'string' },
      repeat: { type: 'string', default: '20' },
      budget: { type: 'string', default: '5' },
      'export-timeout': { type: 'string', default: '120' },
      ingest: { type: 'string' },
      'api-processes': { type: 'string', default: '1' },
      'tax-backlog': { type: 'string' },
      'split-cores': { type: 'boolean', default: false },
      out: { type: 'string' },
      staff: { type: 'string', default: 'big' },
      shape: { type: 'string' },
      clients: { type: 'string' },
      'open-bets': { type: 'string' },
      payments: { type: 'string' },
      names: { type: 'string' },
    },
  });
  const shape = shapeFromArgs(values);
  if (typeof shape === 'string') {
    console.error(shape);
    process.exit(2);
  }
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) {
    console.error('Set DATABASE_URL to the bench database, e.g. postgres://postgres@127.0.0.1:5432/betdesk_bench (--generate drops and refills it)');
    process.exit(2);
  }
  const scale = Number(values.scale);
  const options: Options = {
    url,
    scale,
    generate: values.generate ?? false,
    refresh: values['refresh-summaries'] ?? false,
    only: values.only,
    repeat: Number(values.repeat),
    budgetMs: Number(values.budget) * 1000,
    exportTimeoutMs: Number(values['export-timeout']) * 1000,
    ingest: values.ingest ? Number(values.ingest) : Math.max(500, Math.round(10_000 * scale)),
    apiProcesses: Number(values['api-processes']),
    taxBacklog: values['tax-backlog'] ? Number(values['tax-backlog']) : 100_000,
    splitCores: values['split-cores'] ?? false,
    out: values.out,
    staff: (values.staff ?? 'big') as StaffKind,
    shape,
  };
  if (!(options.staff in STAFF_EMAILS)) {
    console.error('--staff is big (5 % of the clients), rare (1 %), none or other (another 5 %)');
    process.exit(2);
  }
  if (!(scale > 0) || !(options.repeat >= 1) || !(options.budgetMs > 0) || !(options.exportTimeoutMs > 0) || !(options.ingest >= 1) || !Number.isInteger(options.apiProcesses) || !(options.apiProcesses >= 1) || !(options.taxBacklog >= 1)) {
    console.error('--scale, --repeat, --budget, --export-timeout, --ingest and --api-processes take positive numbers');
    process.exit(2);
  }
  runSuite(options).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) cli();
