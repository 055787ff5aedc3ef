import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CATEGORY_ID } from '@betdesk/contract';
import { loadDump, restoreCheckSql, type RestoreTarget } from '../../src/modules/backups/dump.ts';
import { BackupError, restoreBackup, runBackup } from '../../src/modules/backups/service.ts';
import { createTestApp, serverDatabase, type TestApp } from '../helpers.ts';

/**
 * Issue 27: a backup of a database nobody uses is refused naming it; a restore keeps all of the
 * backup or none of it, says what failed without a stack trace, and does not leave the backup's
 * own run unfinished.
 */
let t: TestApp;
let dir: string;
const drops: (() => Promise<void>)[] = [];

async function freshTarget(): Promise<RestoreTarget> {
  const server = await serverDatabase('betdesk_restore');
  if (!server) return { kind: 'pglite', dataDir: join(dir, `restored-${randomBytes(4).toString('hex')}`) };
  drops.push(server.drop);
  return { kind: 'postgres', url: server.url };
}

/** The tables in the target (none means nothing of a failed restore was kept). */
async function tablesIn(target: RestoreTarget): Promise<string[]> {
  if (target.kind === 'pglite') return existsSync(target.dataDir) ? readdirSync(target.dataDir) : [];
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
    );
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

async function query<T>(target: RestoreTarget, text: string): Promise<T[]> {
  if (target.kind === 'postgres') {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const client = await PGlite.create(target.dataDir);
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.close();
  }
}

/** Writes a given SQL text as the dump. */
const dumpOf = (sql: string) => async (into: Writable) => {
  await new Promise<void>((resolve, reject) => into.end(sql, (error?: Error | null) => (error ? reject(error) : resolve())));
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'betdesk-restore-'));
  t = await createTestApp({ env: { BACKUP_DIR: dir } });
});
afterAll(async () => {
  await t.close();
  for (const drop of drops) await drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a backup', () => {
  it('refuses a database that holds no user, naming the database it looked at', async () => {
    const refused = await runBackup(t.deps.database, t.deps.config, 'cli').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BackupError);
    const where = t.deps.config.databaseUrl ? `on ${new URL(t.deps.config.databaseUrl).hostname}` : 'the embedded database';
    expect((refused as Error).message).toContain(where);
    expect((refused as Error).message).toContain('holds no user');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a restore', () => {
  it('keeps nothing when the loaded data does not match the manifest', async () => {
    const target = await freshTarget();
    const dump = 'create table public.payments (id int, amount_cents bigint);\ninsert into public.payments values (1, 100);\n';
    const check = restoreCheckSql({ row_counts: { payments: 2 }, money_totals_cents: { 'payments.amount_cents': '300' } }, {
      createdAt: new Date().toISOString(),
      fileName: 'x.sql.gz',
    });
    const failed = await loadDump(target, dumpOf(dump), check).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(BackupError);
    expect((failed as Error).message).toContain('nothing was kept');
    expect((failed as Error).message).toContain('payments: 2 rows expected, 1 found');
    expect((failed as Error).message).toContain('payments.amount_cents: total 300 expected, 100 found');
    expect(await tablesIn(target)).toEqual([]);
  }, 120_000);

  it('says which statement failed and that nothing was kept, as a message rather than a stack trace', async () => {
    const target = await freshTarget();
    const dump = 'create table public.payments (id int);\ninsert into public.no_such_table values (1);\n';
    const failed = await loadDump(target, dumpOf(dump), '').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(BackupError);
    expect((failed as Error).message).toMatch(/nothing was kept.*no_such_table/s);
    expect(await tablesIn(target)).toEqual([]);
  }, 120_000);

  it('records the backup it came from as a finished run, not one still going', async () => {
    await t.addUser({ email: 'admin@betdesk.local', categoryId: ADMIN_CATEGORY_ID });
    const made = await runBackup(t.deps.database, t.deps.config, 'cli');
    const target = await freshTarget();
    await restoreBackup(made.file, { target, backupKey: undefined, secretsKey: t.deps.config.secretsKey });
    const runs = await query<{ ok: boolean | null; finished: boolean; file_name: string | null }>(
      target,
      'select ok, finished_at is not null as finished, file_name from backup_runs order by id',
    );
    expect(runs).toEqual([{ ok: true, finished: true, file_name: made.info.name }]);
    // A restore of the embedded database starts PGlite on disk twice: slow on a busy machine.
  }, 240_000);
});
