import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppDeps } from '../../deps.ts';
import { parseSummaryKey, summedByKey } from '../../db/summaries.ts';
import { backupStatus } from '../backups/service.ts';
import { retentionFigures } from '../privacy/service.ts';
import { UNCLAIMED_KEYS } from '../../db/money.ts';
import { utilityBalanceGauge } from '../refunds/service.ts';
import { lateInvoices, taxInvoicingOn } from '../tax/service.ts';
import { feedState } from '../feed/service.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { adminGrantFigures } from '../users/service.ts';
import { providerStates, smsProvidersOf } from '../sms/service.ts';
import * as q from './queries.ts';

/** Outbox states worth watching: the ones a message passes through, not the millions sent. */
const OUTBOX_STATUSES = ['queued', 'sending', 'unconfirmed', 'failed'] as const;

const seconds = (date: Date | string | null | undefined): number => (date ? new Date(date).getTime() / 1000 : 0);

/**
 * GET /metrics in Prometheus' text format, behind METRICS_TOKEN (decision 023). Every gauge is read
 * when scraped from a summary or an indexed count, never by scanning a big table.
 */
export function installMetrics(app: FastifyInstance, deps: AppDeps): void {
  const token = deps.config.metricsToken;
  if (!token) {
    // Disabled: 404, rather than the SPA's index.html that any other unknown GET gets.
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => reply.status(404).type('text/plain').send('Not Found\n'));
    return;
  }
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client's gauges named *_total read as counters to Prometheus (promtool check metrics); the
  // same figures stay, by type, in nodejs_active_handles / _requests / _resources.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
    registry.removeSingleMetric(name);
  }

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
  // The replica's lag as this process sees it (decision 073); +Inf when it does not answer. Only
  // with DATABASE_REPLICA_URL: no replica, no series.
  const reads = deps.reads;
  if (reads) {
    new Gauge({
      name: 'betdesk_database_replica_lag_seconds',
      help: 'How far the read replica is behind the primary, in seconds (+Inf: it does not answer); past DATABASE_REPLICA_MAX_LAG_SECONDS its reads go to the primary',
      registers: [registry],
      async collect() {
        const state = await reads.state();
        this.set(state ? state.lagSeconds : Number.POSITIVE_INFINITY);
      },
    });
  }
  new Gauge({
    name: 'betdesk_sms_messages',
    help: 'Messages in the SMS outbox by status (queued, sending, unconfirmed, failed)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const found = await q.outboxCounts(db, OUTBOX_STATUSES);
      for (const r of found) this.set({ status: r.status }, r.n);
    },
  });
  // Each SMS provider's circuit (decision 062): 1 closed (in use), 0 open or half-open; and the
  // messages it took and refused, from the circuits' own counts.
  let providerRead: ReturnType<typeof providerStates> | null = null;
  const providerFigures = () =>
    (providerRead ??= providerStates(db, smsProvidersOf(deps)).finally(() => {
      providerRead = null;
    }));
  new Gauge({
    name: 'betdesk_sms_provider_up',
    help: 'Whether each SMS provider is in use: 1 its circuit is closed, 0 open or half-open (the reason is on the SMS screen)',
    labelNames: ['provider', 'role'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const p of (await providerFigures()).providers) this.set({ provider: p.provider, role: p.role }, p.state === 'closed' ? 1 : 0);
    },
  });
  new Counter({
    name: 'betdesk_sms_provider_sends_total',
    help: 'Messages each SMS provider accepted',
    labelNames: ['provider'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const p of (await providerFigures()).providers) this.inc({ provider: p.provider }, p.sends);
    },
  });
  new Counter({
    name: 'betdesk_sms_provider_failures_total',
    help: 'Messages each SMS provider did not accept (refused, failed, unconfirmed or to retry)',
    labelNames: ['provider'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const p of (await providerFigures()).providers) this.inc({ provider: p.provider }, p.failures);
    },
  });
  // Counts that only grow are counters (promtool: a *_total is a counter), read from the database
  // at each scrape: reset, then set to the database's figure.
  new Counter({
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
      for (const [source, n] of bySource) this.inc({ source }, n);
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
  // The three job gauges come from one read of pg-boss's table per scrape: each gauge's collect runs
  // when the scrape starts (prom-client starts every collect at once) and waits for the same read,
  // so each serves this scrape's figures (a gauge set by another's collect served the previous
  // scrape's, and nothing on a process's first). Every queue of this version is there, 0 when it
  // has no job, so a queue's first failure is a rise from 0, not a new series.
  let jobRead: Promise<Map<string, { depth: number; failed: number; age: number }> | null> | null = null;
  const jobFigures = () =>
    (jobRead ??= readJobFigures().finally(() => {
      jobRead = null;
    }));
  async function readJobFigures(): Promise<Map<string, { depth: number; failed: number; age: number }> | null> {
    // A process that never started the job queue (tests) has no pg-boss schema.
    const [{ exists } = { exists: false }] = (await deps.database.executeSql(`select to_regclass('pgboss.job') is not null as exists`))
      .rows as { exists: boolean }[];
    if (!exists) return null;
    const found = await deps.database.executeSql(
      `select name, count(*) filter (where state <> 'failed')::int as n, count(*) filter (where state = 'failed')::int as failed,
              coalesce(extract(epoch from now() - min(created_on) filter (where state <> 'failed' and start_after <= now())), 0)::float8 as age
         from pgboss.job where state in ('created', 'retry', 'failed') group by name`,
    );
    const figures = new Map(Object.values(QUEUES).map((queue) => [queue as string, { depth: 0, failed: 0, age: 0 }]));
    for (const r of found.rows) figures.set(String(r.name), { depth: Number(r.n), failed: Number(r.failed), age: Number(r.age) });
    return figures;
  }
  const jobGauge = (name: string, help: string, figure: 'depth' | 'failed' | 'age') =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'] as const,
      registers: [registry],
      async collect() {
        const figures = await jobFigures();
        this.reset();
        for (const [queue, f] of figures ?? []) this.set({ queue }, f[figure]);
      },
    });
  jobGauge('betdesk_job_queue_depth', 'Jobs waiting to run, by queue', 'depth');
  jobGauge('betdesk_job_failed', 'Jobs that failed for good (every retry spent), by queue, as pg-boss keeps them (7 days)', 'failed');
  jobGauge('betdesk_job_oldest_queued_age_seconds', 'Age of the oldest job that is due and not started, by queue', 'age');
  // The size of pg-boss's tables (decision 072): its maintainer advises keeping the job table well
  // under ~1M rows. The job table is counted by state (it holds an hour of runs); the archive, which
  // may be large, is the planner's estimate (no scan per scrape).
  new Gauge({
    name: 'betdesk_job_rows',
    help: "Rows of pg-boss's tables: the job table by state, and the archive (an estimate)",
    labelNames: ['table', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const [{ exists } = { exists: false }] = (await deps.database.executeSql(`select to_regclass('pgboss.job') is not null as exists`))
        .rows as { exists: boolean }[];
      if (!exists) return;
      const byState = await deps.database.executeSql(`select state::text as state, count(*)::int as n from pgboss.job group by state`);
      for (const state of ['created', 'retry', 'active', 'completed', 'cancelled', 'failed']) this.set({ table: 'job', state }, 0);
      for (const r of byState.rows) this.set({ table: 'job', state: String(r.state) }, Number(r.n));
      const archive = await deps.database.executeSql(
        `select greatest(coalesce((select reltuples from pg_class where oid = to_regclass('pgboss.archive')), 0), 0)::float8 as n`,
      );
      this.set({ table: 'archive', state: 'all' }, Number(archive.rows[0]?.n ?? 0));
    },
  });
  new Gauge({
    name: 'betdesk_tax_invoices_late',
    help: 'Tax invoices neither sent to KRA nor rejected after ETIMS_LATE_HOURS (alert when above 0)',
    registers: [registry],
    async collect() {
      this.set(await lateInvoices(deps));
    },
  });
  new Gauge({
    name: 'betdesk_feed_requests_remaining',
    help: "Requests the sports-data feed said are left (decision 070), by window (day, minute); absent until it answered",
    labelNames: ['window'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const state = await feedState(deps);
      if (state.requests_remaining_day !== null) this.set({ window: 'day' }, state.requests_remaining_day);
      if (state.requests_remaining_minute !== null) this.set({ window: 'minute' }, state.requests_remaining_minute);
    },
  });
  new Gauge({
    name: 'betdesk_feed_backing_off',
    help: 'The sports-data feed answered 429 (too many requests): 1 while no request leaves, until the back-off ends',
    registers: [registry],
    async collect() {
      const until = (await feedState(deps)).backing_off_until;
      this.set(until !== null && new Date(until).getTime() > Date.now() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'betdesk_tax_invoicing_on',
    help: '1 when the eTIMS device is initialised and sales are invoiced to KRA',
    registers: [registry],
    async collect() {
      this.set((await taxInvoicingOn(db)) ? 1 : 0);
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
    // `check`, not `job`: Prometheus's own `job` label (the scrape job) would rename ours to exported_job.
    labelNames: ['check'] as const,
    registers: [registry],
    async collect() {
      const r = await q.reconciliationLastRuns(db);
      this.set({ check: 'money_check' }, seconds(r?.check));
      this.set({ check: 'mpesa_pull' }, seconds(r?.pull));
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
    help: 'Refunds approved but not yet done or failed, by status (sending, unknown, held for review): money that may be on its way out',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const found = await q.unresolvedRefundCounts(db);
      this.set({ status: 'sending' }, 0);
      this.set({ status: 'unknown' }, 0);
      this.set({ status: 'held' }, 0);
      for (const r of found) this.set({ status: r.status }, Number(r.n));
    },
  });
  // Admin rights asked in the web (decision 056): a grant waiting, and every step, alert.
  new Gauge({
    name: 'betdesk_admin_grants_pending',
    help: 'Admin rights asked in the web and waiting for a second admin',
    registers: [registry],
    async collect() {
      this.set((await adminGrantFigures(db)).pending);
    },
  });
  new Counter({
    name: 'betdesk_admin_grant_steps_total',
    help: 'Steps of admin rights asked in the web, by step (requested, approved, declined)',
    labelNames: ['step'] as const,
    registers: [registry],
    async collect() {
      const figures = await adminGrantFigures(db);
      this.reset();
      for (const step of ['requested', 'approved', 'declined'] as const) this.inc({ step }, figures[step]);
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
  new Counter({
    name: 'betdesk_retention_people_pseudonymised_total',
    help: 'People pseudonymised by the retention job, over all its runs',
    registers: [registry],
    async collect() {
      this.reset();
      this.inc((await retentionFigures(db)).peoplePseudonymised);
    },
  });
  new Counter({
    name: 'betdesk_retention_sms_texts_emptied_total',
    help: 'SMS texts (sent and received) emptied by the retention job (metadata kept), over all its runs',
    registers: [registry],
    async collect() {
      this.reset();
      this.inc((await retentionFigures(db)).smsTextsEmptied);
    },
  });
  new Gauge({
    name: 'betdesk_installed_timestamp_seconds',
    help: "When this install first started (its first admin was created): the baseline of the 'has not run for a day' alerts",
    registers: [registry],
    async collect() {
      this.set(seconds(await q.installedAt(db)));
    },
  });

  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply.status(401).header('www-authenticate', 'Bearer').type('text/plain').send('Unauthorized\n');
    }
    let text: string;
    try {
      text = await registry.metrics();
    } catch (error) {
      request.log.warn({ err: error }, 'metrics: the database does not answer');
      return reply.status(503).type('text/plain').header('cache-control', 'no-store').send('Service Unavailable: the database does not answer\n');
    }
    return reply.type(registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
