/**
 * npm run e2e: builds the SPA unless apps/web/dist was built from the same sources (as `npm start`
 * does: CI's second run, on PostgreSQL, tests the build of its first), then runs the Playwright specs
 * in Debian's Chromium against the API serving that build on a fresh, seeded database (a new PGlite
 * directory, or a new database on the PostgreSQL server of DATABASE_URL). Arguments go to
 * Playwright: `npm run e2e -- apps/web/e2e/specs/sms.spec.ts`.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { specsToRun } from '../apps/web/e2e/databases.ts';
import { startDataDirFrom, writeMigratedDataDir } from './migrated-data-dir.ts';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  return result.status ?? 1;
}

async function main(): Promise<number> {
  if (!existsSync(chromium)) {
    const message = `Browser tests need Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH).`;
    if (process.env.E2E_REQUIRED === '1') {
      console.error(message);
      return 1;
    }
    console.warn(`Skipping the browser tests: ${message}`);
    return 0;
  }
  if (run('node', ['--import', 'tsx', 'scripts/build-web-if-changed.ts']) !== 0) return 1;
  // The first-load budget (decision 016): the /login route's JavaScript stays under 200 kB of gzip.
  if (run('node', ['--import', 'tsx', 'apps/web/build/route-sizes.ts', '--check']) !== 0) return 1;
  // The subscriber portal's budget (decision 021): at most 50 kB of gzip JavaScript on any portal page.
  if (run('node', ['--import', 'tsx', 'scripts/portal-weight.ts', '--check']) !== 0) return 1;

  // The shared servers' data directories (playwright.config.ts, decision 100): the second only when
  // this run has specs on it (the PGlite run of CI has none).
  const database = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const servers = specsToRun(database, process.env.CI_SPLIT === '1').shared2.length > 0 ? 2 : 1;
  const dataDirs = Array.from({ length: servers }, () => mkdtempSync(join(tmpdir(), 'betdesk-e2e-')));
  // One migrated embedded database for the run (decision 097): the servers on PGlite (the shared ones on
  // the PGlite run, every spec's own server) start from a copy of it instead of an initdb and the migrations.
  const templateDir = mkdtempSync(join(tmpdir(), 'betdesk-e2e-template-'));
  const template = join(templateDir, 'pglite');
  await writeMigratedDataDir(template);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    E2E_DATA_DIR: dataDirs[0],
    ...(dataDirs[1] ? { E2E_DATA_DIR_2: dataDirs[1] } : {}),
    E2E_PGLITE_TEMPLATE: template,
    CHROMIUM_PATH: chromium,
  };
  if (!process.env.DATABASE_URL) for (const dir of dataDirs) startDataDirFrom(template, dir);
  const databases: string[] = [];
  const server = process.env.DATABASE_URL;
  if (server) {
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    for (const variable of ['E2E_DATABASE_URL', 'E2E_DATABASE_URL_2'].slice(0, servers)) {
      const name = `betdesk_e2e_${randomBytes(5).toString('hex')}`;
      await admin.query(`create database ${name}`);
      databases.push(name);
      const url = new URL(server);
      url.pathname = `/${name}`;
      env[variable] = url.toString();
    }
    await admin.end();
  }
  const dropDatabases = async () => {
    if (!server || databases.length === 0) return;
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    for (const name of databases) await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
  try {
    return run('npx', ['playwright', 'test', '-c', 'apps/web/e2e/playwright.config.ts', ...process.argv.slice(2)], env);
  } finally {
    await dropDatabases();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    rmSync(templateDir, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code));
