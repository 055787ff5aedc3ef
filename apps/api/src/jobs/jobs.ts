import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';

/** The queues of the product, by name. Handlers are registered by the domains that own them. */
export const QUEUES = {
  smsDispatch: 'sms-dispatch',
  stkRecheck: 'mpesa-stk-recheck',
  subscriptionExpiry: 'subscription-expiry',
  mpesaPull: 'mpesa-pull',
  moneyCheck: 'money-check',
  summaryCompaction: 'summary-compaction',
  ussdPurchases: 'ussd-purchases',
  privacyRetention: 'privacy-retention',
  backup: 'backup',
  paymentRecovery: 'payment-recovery',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface Jobs {
  /** Ask for a queue's work to run soon; many nudges within a few seconds collapse into one job. */
  nudge(queue: QueueName): Promise<void>;
  stop(): Promise<void>;
}

export interface JobHandler {
  queue: QueueName;
  /** Cron for a safety-net run (work written to the database is picked up even if a nudge was lost). */
  cron?: string;
  /** Time zone of the cron (UTC when not given). */
  tz?: string;
  /** `signal` aborts at shutdown: a long run stops at its next safe point. */
  run(signal: AbortSignal): Promise<void>;
}

export interface JobOptions {
  /** false (JOBS=off): this process only sends jobs; another process (`npm run worker`) runs them. */
  work: boolean;
  /** How long stop() waits for running jobs. */
  stopTimeoutMs: number;
}

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
      ? { connectionString: database.url, max: 3, schema: 'pgboss', ...roles }
      : { db: { executeSql: (text, values) => database.executeSql(text, values) }, schema: 'pgboss', ...roles },
  );
  const stopping = new AbortController();
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const handler of handlers) {
    await boss.createQueue(handler.queue, { name: handler.queue, retryLimit: 5, retryBackoff: true });
    if (!options.work) continue;
    await boss.work(handler.queue, async () => {
      await handler.run(stopping.signal);
    });
    if (handler.cron) await boss.schedule(handler.queue, handler.cron, {}, handler.tz ? { tz: handler.tz } : {});
  }
  return {
    async nudge(queue) {
      await boss.send(queue, {}, { singletonKey: queue, singletonSeconds: 2 });
    },
    async stop() {
      stopping.abort();
      // graceful: waits for the running jobs (which stop at their next safe point) before closing.
      await boss.stop({ graceful: true, timeout: options.stopTimeoutMs, wait: true });
    },
  };
}

/** For tests and scripts that run work directly: nudges are no-ops. */
export const noJobs: Jobs = {
  async nudge() {},
  async stop() {},
};
