/**
 * What both processes (npm start's API and npm run worker) do before they open the database: read
 * the configuration, and wait for a PostgreSQL server that is not up yet. A setting that is wrong, or
 * a database that refuses for good, ends the boot with one line, not a stack trace.
 */
import pg from 'pg';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DatabaseUnreachableError, waitForDatabase } from './db/client.ts';
import { connectionBudget, type Budget } from './db/connection-budget.ts';
import { jobPoolSize } from './jobs/jobs.ts';

export function readConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * On PostgreSQL, waits for the server, then states this process's connection budget and refuses to
 * start past it; the embedded database needs neither.
 */
export async function waitForDatabaseOrExit(config: Config, { worker = false }: { worker?: boolean } = {}): Promise<void> {
  if (!config.databaseUrl) return;
  try {
    await waitForDatabase(config.databaseUrl, { say: (line) => console.error(line) });
  } catch (error) {
    if (!(error instanceof DatabaseUnreachableError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const budget = await readConnectionBudget(config, { worker });
  console.error(budget.line);
  if (budget.verdict === 'refuse') process.exit(1);
}

/**
 * This process's share of the server's connections (decision 072), from the server's own
 * max_connections: `worker` runs the jobs whatever JOBS says.
 */
export async function readConnectionBudget(config: Config, { worker }: { worker: boolean }): Promise<Budget> {
  const client = new pg.Client({ connectionString: config.databaseDirectUrl ?? config.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ max: string; reserved: string }>(
      `select current_setting('max_connections') as max, current_setting('superuser_reserved_connections') as reserved`,
    );
    return connectionBudget({
      processes: config.databaseProcesses,
      pool: config.databasePoolSize,
      jobs: jobPoolSize(worker || config.jobs),
      listener: 1,
      pooled: !!config.databaseDirectUrl && config.databaseDirectUrl !== config.databaseUrl,
      poolerConnections: config.databasePoolerConnections,
      maxConnections: Number(rows[0]!.max),
      reserved: Number(rows[0]!.reserved),
    });
  } finally {
    await client.end().catch(() => {});
  }
}
