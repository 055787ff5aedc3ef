import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { EmbeddedDatabaseBusyError, lockEmbeddedDatabase } from '../../src/db/pglite-lock.ts';

/** Issue 20 item 14: `npm run reset-password` beside a server running on the embedded database. */
const root = resolve(import.meta.dirname, '../../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'betdesk-reset-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The lock a live process holds on `<dir>`: what a running server writes when it opens the database. */
const heldBy = (dir: string, pid: number) => writeFileSync(`${dir}.lock`, JSON.stringify({ pid, since: '2026-11-25T10:00:00Z', command: 'server' }));

describe('the embedded database is held by the process that opened it', () => {
  it('makes reset-password refuse, printing no password, while the server holds the data directory', async () => {
    heldBy(join(dataDir, 'pglite'), process.pid);
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = execFile(
        'node',
        ['--import', 'tsx', 'scripts/reset-password.ts', '--email', 'admin@betdesk.test'],
        { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, timeout: 100_000 },
        (_error, stdout, stderr) => done({ status: child.exitCode, stdout, stderr }),
      );
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`is in use by another process (pid ${process.pid})`);
    expect(run.stderr).toContain('Stop the server first');
    expect(run.stdout).not.toContain('New password');
    expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(false);
  }, 120_000);

  it('refuses to open a data directory another live process holds', async () => {
    const dir = join(dataDir, 'held');
    heldBy(dir, process.ppid);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(EmbeddedDatabaseBusyError);
  });

  it('takes over a lock left by a process that is gone, and removes its own on release', () => {
    const dir = join(dataDir, 'left');
    heldBy(dir, 2_147_483_646);
    const release = lockEmbeddedDatabase(dir);
    expect(() => lockEmbeddedDatabase(dir)).not.toThrow(); // the same process again
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });
});
