/**
 * npm run worker: job workers without the HTTP server, for running API and workers as separate
 * processes on one PostgreSQL database (ARCHITECTURE.md, scale path).
 */
import pino from 'pino';
import { databaseOptions } from './config.ts';
import { openDatabase } from './db/client.ts';
import type { AppDeps } from './deps.ts';
import { loggerOptions } from './http/logger.ts';
import { createFailoverGateway, createSmsGateway } from './integrations/sms/index.ts';
import { createSportsFeed } from './integrations/sports-feed/index.ts';
import { jobHandlers } from './job-handlers.ts';
import { noJobs, QUEUES, startJobs, type Jobs } from './jobs/jobs.ts';
import { readConfigOrExit, waitForDatabaseOrExit } from './process-start.ts';

const config = readConfigOrExit();
const logger = pino(loggerOptions(config.logLevel) as pino.LoggerOptions);
// Started beside the API (docker compose, systemd), the worker may boot before PostgreSQL is up.
await waitForDatabaseOrExit(config, { worker: true });
const database = await openDatabase(databaseOptions(config));
await database.migrate();
// The handlers nudge their queues (an SMS run that stopped with work left asks for the next one):
// they must reach this process's queue, so `jobs` is the real one once it has started.
const jobsRef: { current: Jobs } = { current: noJobs };
const deps: AppDeps = {
  config,
  database,
  db: database.db,
  get jobs() {
    return jobsRef.current;
  },
  sms: createSmsGateway(config, logger),
  smsFailover: createFailoverGateway(config, logger),
  sportsFeed: createSportsFeed(config),
};
const jobs = await startJobs(database, jobHandlers(deps), logger, {
  work: true,
  stopTimeoutMs: Math.max(1000, (config.shutdownTimeoutSeconds - 2) * 1000),
});
jobsRef.current = jobs;
// Messages left queued by a worker that stopped (SIGTERM mid fan-out) go now, not at the next cron minute.
await jobs.nudge(QUEUES.smsDispatch);
logger.info('workers started');
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing the running jobs');
    // The running jobs stop at their next safe point (an SMS batch handed to the gateway is
    // recorded first); past the bound the process exits 1 and the claims expire for the next one.
    setTimeout(() => {
      logger.error({ seconds: config.shutdownTimeoutSeconds }, 'the running jobs did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000).unref();
    jobs
      .stop()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'stopping failed');
          process.exit(1);
        },
      );
  });
}
