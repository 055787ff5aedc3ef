import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { databaseOptions, replicaDatabaseOptions, type Config } from './config.ts';
import { ReadRouting } from './db/replica.ts';
import { openDatabase } from './db/client.ts';
import type { AppDeps } from './deps.ts';
import { buildApp } from './app.ts';
import { createFailoverGateway, createSmsGateway } from './integrations/sms/index.ts';
import { createSportsFeed } from './integrations/sports-feed/index.ts';
import { noJobs, QUEUES, startJobs, type Jobs } from './jobs/jobs.ts';
import { jobHandlers } from './job-handlers.ts';
import { bootstrap, type BootReport } from './bootstrap.ts';
import { startBackupControl } from './modules/backups/service.ts';

export interface Server {
  app: FastifyInstance;
  deps: AppDeps;
  boot: BootReport;
}

/** Boot order of ARCHITECTURE.md: config -> database + migrations -> jobs -> http. */
export async function createServer(config: Config, logger: FastifyBaseLogger): Promise<Server> {
  const database = await openDatabase(databaseOptions(config));
  const jobsRef: { current: Jobs } = { current: noJobs };
  // The replica's pool connects lazily: a replica down at boot is skipped, never waited for (decision 073).
  const replicaOptions = replicaDatabaseOptions(config);
  const reads = replicaOptions
    ? new ReadRouting(database, await openDatabase(replicaOptions), { maxLagSeconds: config.databaseReplicaMaxLagSeconds })
    : null;
  const deps: AppDeps = {
    reads,
    config,
    database,
    db: database.db,
    sms: createSmsGateway(config, logger),
    smsFailover: createFailoverGateway(config, logger),
    sportsFeed: createSportsFeed(config),
    get jobs() {
      return jobsRef.current;
    },
  };
  const boot = await bootstrap(deps, logger);
  // JOBS=off: this API process only queues work; `npm run worker` runs it (one SMS dispatcher set).
  jobsRef.current = await startJobs(database, jobHandlers(deps), logger, {
    work: config.jobs,
    stopTimeoutMs: Math.max(1000, (config.shutdownTimeoutSeconds - 2) * 1000),
  });
  // A feed just configured (or the demo's) has its fixtures for the picker now, not at the next sync.
  if (deps.sportsFeed) {
    await jobsRef.current.nudge(QUEUES.feedSync);
    await jobsRef.current.nudge(QUEUES.feedResults);
  }
  // The embedded database is this process's alone: `npm run backup` asks it through a socket.
  const stopControl = database.kind === 'pglite' ? await startBackupControl(database, config) : async () => {};
  const app = await buildApp(deps, { logger });
  app.addHook('onClose', async () => {
    await stopControl();
    await jobsRef.current.stop();
    await reads?.close();
    await database.close();
  });
  return { app, deps, boot };
}
