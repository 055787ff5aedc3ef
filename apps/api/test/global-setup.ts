import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { ensureSettingDefaults } from '../src/modules/settings/service.ts';
import { writeMigratedDataDir } from '../../../scripts/migrated-data-dir.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * Where every test file's database starts: a migrated one with the settings' defaults, made once
     * per run. On PGlite, the path of its dumped data directory and of that directory on disk (for the
     * processes a test starts: helpers.ts databaseForProcesses); on PostgreSQL, the name of a template
     * database that `create database … template` copies.
     */
    migratedDatabase: { kind: 'pglite'; dump: string; dataDir: string } | { kind: 'postgres'; template: string };
  }
}

/** One statement on the PostgreSQL server of `serverUrl`, on a connection of its own (create or drop a database). */
export async function onServer(serverUrl: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/**
 * Migrates one database for the whole run instead of one per test file: each file then starts from
 * a copy (PGlite's data directory loaded from a dump, or PostgreSQL's template), which skips
 * PGlite's initdb and the 40-odd migrations per file.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const template = `betdesk_template_${randomBytes(6).toString('hex')}`;
    await onServer(serverUrl, `create database ${template}`);
    const url = new URL(serverUrl);
    url.pathname = `/${template}`;
    const database = await openDatabase({ url: url.toString(), poolSize: 1 });
    try {
      await database.migrate();
      await ensureSettingDefaults(database.db);
    } finally {
      await database.close();
    }
    project.provide('migratedDatabase', { kind: 'postgres', template });
    return () => onServer(serverUrl, `drop database if exists ${template} with (force)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'betdesk-test-template-'));
  const database = await openDatabase({});
  try {
    await database.migrate();
    await ensureSettingDefaults(database.db);
    // Each file's copy loads with about a quarter less CPU without the two template databases (no test
    // makes a database inside PGlite) and with the migrations' WAL checkpointed, not replayed per load.
    const pglite = database.pglite!;
    await pglite.query("update pg_database set datistemplate = false where datname in ('template0', 'template1')");
    await pglite.query('drop database template0');
    await pglite.query('drop database template1');
    await pglite.query('checkpoint');
    const dump = join(dir, 'migrated.tar');
    const dumped = await pglite.dumpDataDir('none');
    writeFileSync(dump, Buffer.from(await dumped.arrayBuffer()));
    const dataDir = join(dir, 'pglite');
    await writeMigratedDataDir(dataDir, dumped);
    project.provide('migratedDatabase', { kind: 'pglite', dump, dataDir });
  } finally {
    await database.close();
  }
  return async () => rmSync(dir, { recursive: true, force: true });
}
