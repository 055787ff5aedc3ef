/**
 * npm run worker: job workers without the HTTP server, for running API and workers as separate
 * processes on one PostgreSQL database (ARCHITECTURE.md, scale path).
 */
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import type { AppDeps } from './deps.ts';
import { loggerOptions } from './http/logger.ts';
import { createSmsGateway } from './integrations/sms/index.ts';
import { jobHandlers } from './jobs/handlers.ts';
import { noJobs, startJobs } from './jobs/jobs.ts';

const config = loadConfig();
const logger = pino(loggerOptions(config.logLevel) as pino.LoggerOptions);
const database = await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, 'pglite') });
await database.migrate();
const deps: AppDeps = {
  config,
  database,
  db: database.db,
  jobs: noJobs,
  sms: createSmsGateway(config, logger),
};
const jobs = await startJobs(database, jobHandlers(deps), logger, {
  work: true,
  stopTimeoutMs: Math.max(1000, (config.shutdownTimeoutSeconds - 2) * 1000),
});
logger.info('workers started');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    setTimeout(() => process.exit(1), config.shutdownTimeoutSeconds * 1000).unref();
    void jobs.stop().then(() => database.close()).then(() => process.exit(0));
  });
}
