import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { specsToRun } from './databases.ts';

const port = Number(process.env.E2E_PORT ?? 3111);
export const baseURL = `http://127.0.0.1:${port}`;
const root = fileURLToPath(new URL('../../..', import.meta.url));
const database = process.env.E2E_DATABASE_URL ? 'postgres' : 'pglite';
// CI (E2E_CI_SPLIT=1) runs a database-independent spec on one database only (decision 083).
const specs = specsToRun(database, process.env.E2E_CI_SPLIT === '1');

/** Run through `npm run e2e`, which builds the SPA and prepares a fresh database. */
export default defineConfig({
  testDir: './specs',
  testMatch: specs.map((file) => `**/specs/${file}`),
  // One folder per database, so that CI's two runs side by side never clear each other's results.
  outputDir: `./test-results/${database}`,
  // An upper bound for a hung test, not a timing: on a busy two-core CI machine a sound test took 33 s once.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // CI (E2E_REQUIRED=1) gives a failed test one more try: a second failure fails the run, and a pass on
  // the retry is reported as "flaky" in the list, so it stays visible. Seen once: the Winnings editor
  // did not appear within 30 s in CI and passed in every local run, alone and in the full suite.
  retries: process.env.E2E_REQUIRED === '1' ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    },
  },
  webServer: {
    command: 'node --import tsx apps/api/src/main.ts',
    cwd: root,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? `${root}/data/e2e`,
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
      ADMIN_EMAIL: 'admin@betdesk.test',
      ADMIN_PASSWORD: 'e2e-admin-password',
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
    },
  },
});
