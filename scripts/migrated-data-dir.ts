/**
 * A migrated embedded database on disk, made once and copied where a test needs a fresh one
 * (decision 097). A PGlite data directory made from nothing spends about 7 s of CPU (its initdb,
 * then the migrations); a copy of a closed, migrated one takes milliseconds, and the process that
 * opens it finds every migration applied, as a server restarted on its own data would.
 *
 * `node --import tsx scripts/migrated-data-dir.ts <dir>` writes `<dir>` (PGlite's data directory,
 * what a server keeps as DATA_DIR/pglite): migrated, with the settings' defaults and pg-boss's job
 * queues (installed, nothing queued), and nothing else.
 */
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Writes a migrated PGlite data directory at `dir` (from `startFrom`, a dump of one, when given). */
export async function writeMigratedDataDir(dir: string, startFrom?: Blob): Promise<void> {
  // Loaded here, not above: a browser spec that only copies the directory needs none of the API.
  const { openDatabase } = await import('../apps/api/src/db/client.ts');
  const { ensureSettingDefaults } = await import('../apps/api/src/modules/settings/service.ts');
  const { installJobQueues } = await import('../apps/api/src/jobs/jobs.ts');
  const { default: pino } = await import('pino');
  const database = await openDatabase({ dataDir: dir, startFrom });
  try {
    if (!startFrom) {
      await database.migrate();
      await ensureSettingDefaults(database.db);
    }
    // The job queues too, as a server's first boot leaves them: each server started from a copy skips it.
    await installJobQueues(database, pino({ level: 'silent' }));
  } finally {
    await database.close();
  }
}

/**
 * Gives `dataDir` (a server's DATA_DIR) the migrated database of `template`, when there is one;
 * without a template the server makes its own on first boot, as in production.
 */
export function startDataDirFrom(template: string | undefined, dataDir: string): void {
  if (!template || !existsSync(template)) return;
  const target = join(dataDir, 'pglite');
  mkdirSync(dirname(target), { recursive: true });
  cpSync(template, target, { recursive: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node --import tsx scripts/migrated-data-dir.ts <dir>');
    process.exit(2);
  }
  await writeMigratedDataDir(dir);
}
