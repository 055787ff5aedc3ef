import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_CATEGORY_ID } from '@betdesk/contract';
import { runCommand } from '../commands.ts';
import { createTestApp, serverDatabase, type TestApp } from '../helpers.ts';

/**
 * `npm run backup` aimed at the wrong database refuses before it writes anything there (no schema
 * created, no data directory, no secrets generated), and backup and restore say which database they
 * used, by name and host, never with a password.
 */
const repoRoot = join(import.meta.dirname, '../../../..');
let dir: string;
const drops: (() => Promise<void>)[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'betdesk-backup-cmd-'));
});
afterAll(async () => {
  for (const drop of drops) await drop();
  rmSync(dir, { recursive: true, force: true });
});

/** The command as an operator runs it, with only these settings (none from this test's process). */
function npmRun(script: string, env: Record<string, string>, args: string[] = []) {
  const { DATABASE_URL: _url, BETDESK_ENV_FILE: _file, SECRETS_KEY: _key, DATA_DIR: _dir, ...rest } = process.env;
  return runCommand('npm', ['run', '--silent', script, '--', ...args], {
    cwd: repoRoot,
    env: { ...rest, NODE_ENV: 'test', ...env },
    timeoutMs: 120_000,
  });
}

it('refuses an embedded data directory that holds no database, creating nothing in it', async () => {
  const wrong = join(dir, 'wrong-data');
  const run = await npmRun('backup', { DATA_DIR: wrong, BACKUP_DIR: join(dir, 'out') });
  expect(run.status).toBe(1);
  expect(run.out).toContain(`Backing up the embedded database in ${join(wrong, 'pglite')}.`);
  expect(run.err).toContain(`Nothing backed up: the embedded database in ${join(wrong, 'pglite')} does not exist`);
  expect(existsSync(wrong)).toBe(false);
  expect(existsSync(join(dir, 'out'))).toBe(false);
}, 150_000);

it.skipIf(!process.env.DATABASE_URL)('refuses a PostgreSQL database without Betdesk, naming it and leaving it as it was', async () => {
  const wrong = (await serverDatabase('betdesk_wrong'))!;
  drops.push(wrong.drop);
  const url = new URL(wrong.url);
  url.password = 'not-to-be-printed';
  const run = await npmRun('backup', { DATABASE_URL: url.toString(), SECRETS_KEY: '1'.repeat(64), WEBHOOK_SECRET: 'w'.repeat(24), BACKUP_DIR: join(dir, 'out') });
  expect(run.status).toBe(1);
  const name = url.pathname.slice(1);
  expect(run.out).toContain(`Backing up PostgreSQL database "${name}" on ${url.hostname}:${url.port || '5432'}.`);
  expect(run.err).toContain(`Nothing backed up: PostgreSQL database "${name}" on ${url.hostname}`);
  expect(run.err).toContain('holds no Betdesk tables');
  expect(run.out + run.err).not.toContain('not-to-be-printed');
  // Nothing was created there: no table, no schema of the migrations.
  const client = new pg.Client({ connectionString: wrong.url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select count(*)::int as n from pg_namespace where nspname not in ('public', 'information_schema') and nspname not like 'pg\\_%'`,
    );
    expect(rows[0].n).toBe(0);
    const tables = await client.query(`select count(*)::int as n from pg_tables where schemaname = 'public'`);
    expect(tables.rows[0].n).toBe(0);
  } finally {
    await client.end();
  }
  expect(existsSync(join(dir, 'out'))).toBe(false);
}, 150_000);

let t: TestApp | undefined;
afterAll(async () => {
  await t?.close();
});

it.skipIf(!process.env.DATABASE_URL)('says which database it backed up', async () => {
  t = await createTestApp();
  await t.addUser({ email: 'admin@betdesk.local', categoryId: ADMIN_CATEGORY_ID });
  const url = new URL(t.deps.database.url!);
  const out = join(dir, 'good');
  const run = await npmRun('backup', { DATABASE_URL: url.toString(), SECRETS_KEY: '0'.repeat(64), WEBHOOK_SECRET: 'w'.repeat(24), BACKUP_DIR: out });
  expect(run.err).toBe('');
  expect(run.status).toBe(0);
  expect(run.out).toContain(`Backup of PostgreSQL database "${url.pathname.slice(1)}" on ${url.hostname}:${url.port || '5432'} written: ${out}/`);
  expect(readdirSync(out).some((f) => f.endsWith('.sql.gz'))).toBe(true);
}, 150_000);
