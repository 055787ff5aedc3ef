/**
 * What both processes (npm start's API and npm run worker) do before they open the database: read
 * the configuration, and wait for a PostgreSQL server that is not up yet. A setting that is wrong, or
 * a database that refuses for good, ends the boot with one line, not a stack trace.
 */
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DatabaseUnreachableError, waitForDatabase } from './db/client.ts';

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

/** On PostgreSQL, waits for the server; the embedded database needs no wait. */
export async function waitForDatabaseOrExit(config: Config): Promise<void> {
  if (!config.databaseUrl) return;
  try {
    await waitForDatabase(config.databaseUrl, { say: (line) => console.error(line) });
  } catch (error) {
    if (!(error instanceof DatabaseUnreachableError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
