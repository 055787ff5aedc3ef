import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';

/** The queues of the product, by name. Handlers are registered by the domains that own them. */
export const QUEUES = {
  smsDispatch: 'sms-dispatch',
  smsDeliveryPull: 'sms-delivery-pull',
  stkRecheck: 'mpesa-stk-recheck',
  subscriptionExpiry: 'subscription-expiry',
  mpesaPull: 'mpesa-pull',
  moneyCheck: 'money-check',
  summaryCompaction: 'summary-compaction',
  ussdPurchases: 'ussd-purchases',
  privacyRetention: 'privacy-retention',
  backup: 'backup',
  refundSending: 'refund-sending',
  taxInvoices: 'tax-invoices',
  paymentRecovery: 'payment-recovery',
  autoRenewal: 'auto-renewal',
  retentionSummaries: 'retention-summaries',
  exclusionEnds: 'exclusion-ends',
  feedSync: 'feed-sync',
  feedClosingOdds: 'feed-closing-odds',
  feedResults: 'feed-results',
  referrals: 'referrals',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface Jobs {
  /**
   * Ask for a queue's work to run soon. Nudges collapse into the one job still waiting; a nudge
   * while a run is going queues one more run, so work written during a run is never left to the cron.
   */
  nudge(queue: QueueName): Promise<void>;
  stop(): Promise<void>;
}

export interface JobHandler {
  queue: QueueName;
  /** Cron for a safety-net run (work written to the database is picked up even if a nudge was lost). */
  cron?: string;
  /** Time zone of the cron (UTC when not given). */
  tz?: string;
  /**
   * How often an idle worker looks for a job another process queued (seconds, at least 0.5; pg-boss's
   * 2 by default). A nudge from this process wakes its own worker at once.
   */
  pollSeconds?: number;
  /** `signal` aborts at shutdown: a long run stops at its next safe point. */
  run(signal: AbortSignal): Promise<void>;
}

export interface JobOptions {
  /** false (JOBS=off): this process only sends jobs; another process (`npm run worker`) runs them. */
  work: boolean;
  /** How long stop() waits for running jobs. */
  stopTimeoutMs: number;
}

/** The least time between two sends of a queue's nudge from one process (`coalescedSends`). */
const NUDGE_GAP_MS = 20;

/**
 * pg-boss's own pool, sized to what it runs at once: a working process fetches and completes for its
 * queues (each worker one statement at a time, the handlers' own work on the product's pool) and runs
 * the maintenance; a sending-only process only sends coalesced nudges.
 */
export function jobPoolSize(work: boolean): number {
  return work ? 3 : 1;
}

/**
 * How long pg-boss keeps finished jobs (decision 072): its job table holds at most a queue's waiting
 * nudge and the last hour of runs (pg-boss's maintainer advises staying well under ~1M rows); failed
 * jobs stay beside them a week for the failure alert; the archive is emptied after two days.
 */
export const JOB_RETENTION = {
  archiveCompletedAfterSeconds: 3600,
  archiveFailedAfterSeconds: 7 * 24 * 3600,
  deleteAfterDays: 2,
} as const;

/** pg-boss on the product's own database: PostgreSQL directly, PGlite through executeSql. */
export async function startJobs(
  database: Database,
  handlers: JobHandler[],
  logger: FastifyBaseLogger,
  options: JobOptions = { work: true, stopTimeoutMs: 10_000 },
): Promise<Jobs> {
  // A sending-only process neither maintains the queues nor fires the crons: the workers do.
  const roles = options.work ? {} : { supervise: false, schedule: false };
  const boss = new PgBoss(
    database.url
      ? { connectionString: database.url, max: jobPoolSize(options.work), schema: 'pgboss', ...JOB_RETENTION, ...roles }
      : { db: { executeSql: (text, values) => database.executeSql(text, values) }, schema: 'pgboss', ...JOB_RETENTION, ...roles },
  );
  const stopping = new AbortController();
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  const workers = new Map<QueueName, string>();
  for (const handler of handlers) {
    // 'short': at most one job per queue waits (nudges collapse into it), and a nudge during a run
    // queues the next one. A time-slot singleton dropped such a nudge and left the work to the cron
    // (a sign-in code 26-86 s late, decision 034). updateQueue moves queues created before this.
    const queue = { name: handler.queue, policy: 'short' as const, retryLimit: 5, retryBackoff: true };
    await boss.createQueue(handler.queue, queue);
    await boss.updateQueue(handler.queue, queue);
    if (!options.work) continue;
    const id = await boss.work(
      handler.queue,
      handler.pollSeconds ? { pollingIntervalSeconds: handler.pollSeconds } : {},
      async () => {
        await handler.run(stopping.signal);
      },
    );
    workers.set(handler.queue, id);
    if (handler.cron) await boss.schedule(handler.queue, handler.cron, {}, handler.tz ? { tz: handler.tz } : {});
  }
  const sendOnce = coalescedSends((queue: QueueName) => boss.send(queue, {}, { singletonKey: queue }), NUDGE_GAP_MS);
  return {
    async nudge(queue) {
      await sendOnce(queue);
      // This process's own worker fetches now (or right after its running job) instead of at its
      // next poll; other processes' workers find the job at theirs.
      const worker = workers.get(queue);
      if (worker) boss.notifyWorker(worker);
    },
    async stop() {
      stopping.abort();
      // graceful: waits for the running jobs (which stop at their next safe point) before closing.
      await boss.stop({ graceful: true, timeout: options.stopTimeoutMs, wait: true });
    },
  };
}

/**
 * pg-boss's schema and a queue for each of QUEUES, as a process's first boot leaves them, with nothing
 * run: a database made once to be copied for many processes (scripts/migrated-data-dir.ts) then spares
 * each of them that first install (about 2 s of CPU on the embedded database: a partition and six
 * indexes per queue).
 */
export async function installJobQueues(database: Database, logger: FastifyBaseLogger): Promise<void> {
  const idle = async (): Promise<void> => {};
  const handlers = Object.values(QUEUES).map((queue) => ({ queue, run: idle }));
  const jobs = await startJobs(database, handlers, logger, { work: false, stopTimeoutMs: 1000 });
  await jobs.stop();
}

/**
 * A queue's sends, coalesced in this process: a caller waits for a send that starts after its call
 * (so the job it leaves was queued after the caller's commit, or was still waiting then), and
 * callers share sends: a queue sends at once when it has not sent for `gapMs`, else once more
 * `gapMs` after its last send began, for everyone who asked meanwhile. Under a burst of payments
 * that is a few sends a second per queue instead of two per payment (decision 052: each send is a
 * statement and a commit of its own); a nudge waits at most `gapMs` longer.
 */
export function coalescedSends<Q extends string>(send: (queue: Q) => Promise<unknown>, gapMs: number): (queue: Q) => Promise<void> {
  const lastStart = new Map<Q, number>();
  const pending = new Map<Q, Promise<void>>();
  const start = (queue: Q): Promise<void> => {
    lastStart.set(queue, Date.now());
    return send(queue).then(() => undefined);
  };
  return (queue) => {
    const waiting = pending.get(queue);
    if (waiting) return waiting;
    const wait = (lastStart.get(queue) ?? -Infinity) + gapMs - Date.now();
    if (wait <= 0) return start(queue);
    const later = new Promise<void>((resolve) => setTimeout(resolve, wait)).then(() => {
      pending.delete(queue);
      return start(queue);
    });
    pending.set(queue, later);
    return later;
  };
}

/** For tests and scripts that run work directly: nudges are no-ops. */
export const noJobs: Jobs = {
  async nudge() {},
  async stop() {},
};
