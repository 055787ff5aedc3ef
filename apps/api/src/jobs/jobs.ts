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
  run(): Promise<void>;
}

/** pg-boss on the product's own database: PostgreSQL directly, PGlite through executeSql. */
export async function startJobs(
  database: Database,
  handlers: JobHandler[],
  logger: FastifyBaseLogger,
): Promise<Jobs> {
  const boss = new PgBoss(
    database.url
      ? { connectionString: database.url, max: 3, schema: 'pgboss' }
      : { db: { executeSql: (text, values) => database.executeSql(text, values) }, schema: 'pgboss' },
  );
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const handler of handlers) {
    await boss.createQueue(handler.queue, { name: handler.queue, retryLimit: 5, retryBackoff: true });
    await boss.work(handler.queue, async () => {
      await handler.run();
    });
    if (handler.cron) await boss.schedule(handler.queue, handler.cron);
  }
  return {
    async nudge(queue) {
      await boss.send(queue, {}, { singletonKey: queue, singletonSeconds: 2 });
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}

/** For tests and scripts that run work directly: nudges are no-ops. */
export const noJobs: Jobs = {
  async nudge() {},
  async stop() {},
};
