import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { rows } from '../../db/rows.ts';
import { parseSummaryKey, summedByKey } from '../../db/summaries.ts';
import { backupStatus } from '../backups/service.ts';
import { retentionFigures } from '../privacy/service.ts';
import { UNCLAIMED_KEYS } from '../money/service.ts';
import { utilityBalanceGauge } from '../refunds/service.ts';

/** Outbox states worth watching: the ones a message passes through, not the millions sent. */
const OUTBOX_STATUSES = ['queued', 'sending', 'unconfirmed', 'failed'] as const;

const seconds = (date: Date | string | null | undefined): number => (date ? new Date(date).getTime() / 1000 : 0);

/**
 * GET /metrics in Prometheus' text format, behind METRICS_TOKEN (decision 023). Every gauge is read
 * when scraped from a summary or an indexed count, never by scanning a big table.
 */
export function installMetrics(app: FastifyInstance, deps: AppDeps): void {
  const token = deps.config.metricsToken;
  if (!token) return; // disabled: /metrics is an unknown path (404)
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern and status',
    labelNames: ['route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const routeUrl = request.routeOptions.url ?? 'unmatched';
    if (routeUrl === '/metrics') return;
    duration.observe({ route: routeUrl, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  const db = deps.db;
  new Gauge({
    name: 'betdesk_sms_messages',
    help: 'Messages in the SMS outbox by status (queued, sending, unconfirmed, failed)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const found = await rows<{ status: string; n: number }>(
        db,
        sql`select s.status, (select count(*)::int from sms_messages m where m.status = s.status) as n
              from unnest(${`{${OUTBOX_STATUSES.join(',')}}`}::text[]) as s(status)`,
      );
      for (const r of found) this.set({ status: r.status }, r.n);
    },
  });
  new Gauge({
    name: 'betdesk_payments_received_total',
    help: 'M-Pesa payments stored (not rejected), by how they reached us (c2b, stk, pull, statement)',
    labelNames: ['source'] as const,
    registers: [registry],
    async collect() {
      const bySource = new Map<string, number>();
      for (const k of await summedByKey(db, 'payment:')) {
        const key = parseSummaryKey(k.key);
        if (key?.kind !== 'payment' || key.status === 'rejected') continue;
        bySource.set(key.source, (bySource.get(key.source) ?? 0) + k.n);
      }
      this.reset();
      for (const [source, n] of bySource) this.set({ source }, n);
    },
  });
  new Gauge({
    name: 'betdesk_payments_unclaimed',
    help: 'Payments waiting for an admin to claim them',
    registers: [registry],
    async collect() {
      const keys = await summedByKey(db, UNCLAIMED_KEYS);
      this.set(keys.reduce((n, k) => n + k.n, 0));
    },
  });
  const queueDepth = new Gauge({
    name: 'betdesk_job_queue_depth',
    help: 'Jobs waiting to run, by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'betdesk_job_oldest_queued_age_seconds',
    help: 'Age of the oldest job that is due and not started, by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      queueDepth.reset();
      this.reset();
      // A process that never started the job queue (tests) has no pg-boss schema.
      const [{ exists } = { exists: false }] = (await deps.database.executeSql(`select to_regclass('pgboss.job') is not null as exists`))
        .rows as { exists: boolean }[];
      if (!exists) return;
      const found = await deps.database.executeSql(
        `select name, count(*)::int as n,
                coalesce(extract(epoch from now() - min(created_on) filter (where start_after <= now())), 0)::float8 as age
           from pgboss.job where state in ('created', 'retry') group by name`,
      );
      for (const r of found.rows) {
        queueDepth.set({ queue: String(r.name) }, Number(r.n));
        this.set({ queue: String(r.name) }, Number(r.age));
      }
    },
  });
  new Gauge({
    name: 'betdesk_last_backup_timestamp_seconds',
    help: 'When the last successful backup finished (0: never)',
    registers: [registry],
    async collect() {
      this.set(seconds((await backupStatus(db)).lastOkAt));
    },
  });
  new Gauge({
    name: 'betdesk_backup_last_failed',
    help: '1 when the latest backup attempt failed',
    registers: [registry],
    async collect() {
      this.set((await backupStatus(db)).lastFailure ? 1 : 0);
    },
  });
  new Gauge({
    name: 'betdesk_reconciliation_last_run_timestamp_seconds',
    help: 'When the nightly money check and the M-Pesa pull last ran (0: never)',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      const [r] = await rows<{ check: Date | null; pull: Date | null }>(
        db,
        sql`select (select max(ran_at) from money_checks) as check,
                   (select max(finished_at) from mpesa_pull_runs where status = 'ok') as pull`,
      );
      this.set({ job: 'money_check' }, seconds(r?.check));
      this.set({ job: 'mpesa_pull' }, seconds(r?.pull));
    },
  });
  new Gauge({
    name: 'betdesk_mpesa_utility_balance_kes',
    help: "The M-Pesa utility account's balance (B2C refunds are paid from it) as the last B2C result reported it; absent until one did",
    registers: [registry],
    async collect() {
      const balance = await utilityBalanceGauge(db);
      if (balance !== null) this.set(balance);
    },
  });
  new Gauge({
    name: 'betdesk_refunds_unresolved',
    help: 'Refunds approved but not yet done or failed, by status (sending, unknown): money that may be on its way out',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const found = await rows<{ status: string; n: string }>(
        db,
        sql`select status, count(*) as n from refunds where status in ('sending', 'unknown') group by status`,
      );
      this.set({ status: 'sending' }, 0);
      this.set({ status: 'unknown' }, 0);
      for (const r of found) this.set({ status: r.status }, Number(r.n));
    },
  });
  new Gauge({
    name: 'betdesk_retention_last_run_timestamp_seconds',
    help: 'When the daily retention job last ran (0: never)',
    registers: [registry],
    async collect() {
      this.set(seconds((await retentionFigures(db)).lastRunAt));
    },
  });
  new Gauge({
    name: 'betdesk_retention_people_pseudonymised_total',
    help: 'People pseudonymised by the retention job, over all its runs',
    registers: [registry],
    async collect() {
      this.set((await retentionFigures(db)).peoplePseudonymised);
    },
  });
  new Gauge({
    name: 'betdesk_retention_sms_texts_emptied_total',
    help: 'SMS texts (sent and received) emptied by the retention job (metadata kept), over all its runs',
    registers: [registry],
    async collect() {
      this.set((await retentionFigures(db)).smsTextsEmptied);
    },
  });

  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply.status(401).header('www-authenticate', 'Bearer').type('text/plain').send('Unauthorized\n');
    }
    return reply.type(registry.contentType).header('cache-control', 'no-store').send(await registry.metrics());
  });
}
