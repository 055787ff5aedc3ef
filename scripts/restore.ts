/**
 * npm run restore -- --file F
 * Loads a backup into an EMPTY database (DATABASE_URL) or an empty embedded data directory
 * (DATA_DIR/pglite). Refuses a non-empty target, a damaged file, a newer schema and a backup sealed
 * under another SECRETS_KEY, before loading anything; afterwards checks every count and total.
 */
import { kesFixed } from '@betdesk/contract';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, describeDatabase, existingSecretsKey, settingsEnvironment } from '../apps/api/src/config.ts';
import { BackupError, restoreBackup } from '../apps/api/src/modules/backups/service.ts';

const usage = 'Usage: npm run restore -- --file F';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ options: { file: { type: 'string' } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (!values.file) {
    console.error(`Missing --file\n${usage}`);
    return 2;
  }
  // The same settings as the service (BETDESK_ENV_FILE), so the restore lands in its database.
  const env = settingsEnvironment();
  const secretsKey = existingSecretsKey(env);
  if (!secretsKey) {
    console.error(
      'No SECRETS_KEY: set SECRETS_KEY to the key of the backed-up install, or copy its local-secrets.json into DATA_DIR. Nothing was loaded.',
    );
    return 1;
  }
  if (env.BACKUP_KEY && !/^[0-9a-fA-F]{64}$/.test(env.BACKUP_KEY)) {
    console.error('BACKUP_KEY: must be 64 hex characters (a 32-byte key)');
    return 2;
  }
  const file = resolve(values.file);
  if (!existsSync(file)) {
    console.error(`--file: there is no file ${file}`);
    return 2;
  }
  const target = env.DATABASE_URL
    ? // A restore runs psql and session statements: PostgreSQL itself, not a pooler (decision 072).
      ({ kind: 'postgres', url: env.DATABASE_DIRECT_URL || env.DATABASE_URL } as const)
    : ({ kind: 'pglite', dataDir: join(resolve(env.DATA_DIR || './data'), 'pglite') } as const);
  // Which database, by name and host (never a password): the one the restore loads into.
  const where = describeDatabase({ databaseUrl: env.DATABASE_URL, dataDir: resolve(env.DATA_DIR || './data') });
  console.log(`Restoring ${file} into ${where}.`);
  const { manifest, figures } = await restoreBackup(file, {
    target,
    backupKey: env.BACKUP_KEY ? Buffer.from(env.BACKUP_KEY, 'hex') : undefined,
    secretsKey,
  });
  console.log(`Restored the backup of ${manifest.created_at} (schema ${manifest.schema.migration}) into ${where}.`);
  console.log('Verified against the manifest:');
  for (const [table, count] of Object.entries(figures.row_counts)) console.log(`  ${table}: ${count} rows`);
  for (const [column, cents] of Object.entries(figures.money_totals_cents)) console.log(`  ${column}: KES ${kesFixed(cents, { grouped: true })}`);
  console.log('Start Betdesk on it; migrations newer than the backup run at start.');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof BackupError || error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
