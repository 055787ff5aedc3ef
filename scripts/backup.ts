/**
 * npm run backup -- [--out DIR]
 * One consistent, compressed backup file with its manifest (decision 023), into BACKUP_DIR or DIR.
 * On the embedded database a running server is asked to make it (it holds the data directory).
 */
import { kesFixed } from '@betdesk/contract';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { databaseOptions, ConfigError, describeDatabase, loadConfig, settingsEnvironment } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { backupThroughServer } from '../apps/api/src/modules/backups/control.ts';
import { assertBetdeskDatabase, assertEmbeddedDatabaseExists, BackupError, runBackup, type MadeBackup } from '../apps/api/src/modules/backups/service.ts';

const usage = 'Usage: npm run backup -- [--out DIR]';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ options: { out: { type: 'string' } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  // Which database, by name and host (never a password), before anything is read from it; the
  // wrong one is refused before anything is written there (not created, no secrets generated into
  // its DATA_DIR, not migrated).
  const env = settingsEnvironment();
  const where = { databaseUrl: env.DATABASE_URL || undefined, dataDir: resolve(env.DATA_DIR || './data') };
  console.log(`Backing up ${describeDatabase(where)}.`);
  assertEmbeddedDatabaseExists(where);
  const config = loadConfig();
  const outDir = values.out;
  let made: MadeBackup | null = null;
  if (!config.databaseUrl) made = await backupThroughServer(config.dataDir, outDir);
  if (!made) {
    const database = await openDatabase(databaseOptions(config));
    try {
      await assertBetdeskDatabase(database, config);
      await database.migrate();
      made = await runBackup(database, config, 'cli', { outDir });
    } finally {
      await database.close();
    }
  }
  const { manifest, info } = made;
  console.log(`Backup of ${describeDatabase(config)} written: ${made.file}`);
  console.log(`  size ${info.size_bytes} bytes, sha256 ${info.file_sha256}${info.encrypted ? ', encrypted' : ''}, verified: ${info.verified ? 'yes' : 'NO'}`);
  console.log(`  schema ${manifest.schema.migration}, SECRETS_KEY fingerprint ${manifest.secrets_key_fingerprint}`);
  for (const [column, cents] of Object.entries(manifest.money_totals_cents)) {
    const table = column.split('.')[0]!;
    console.log(`  ${column}: KES ${kesFixed(cents, { grouped: true })} over ${manifest.row_counts[table]} rows`);
  }
  return info.verified ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof BackupError ? error.message : error);
    process.exit(1);
  },
);
