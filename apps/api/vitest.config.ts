import { defineProject } from 'vitest/config';
import { DATABASE_FREE_FILES } from './test/database-free.ts';
import { OWN_PROCESS_FILES } from './test/own-process.ts';

const root = new URL('.', import.meta.url).pathname;

/**
 * The API tests (decision 096). Files of this project skip Vitest's per-file module reset
 * (`isolate: false`), and the files of test/own-process.ts (fake timers, `vi.mock`, the process's
 * memory) run in the project beside this one. Vitest reads the pool's isolation from the root config
 * only, so `npm run test:unit` runs this project alone with shared forks set there (decision 099).
 */
export const apiTest = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
  globalSetup: ['test/global-setup.ts'],
} as const;

/** CI's PGlite run (CI_SPLIT=1, no DATABASE_URL) leaves the files that open no database to its PostgreSQL run (decision 101). */
const leftToPostgres = process.env.CI_SPLIT === '1' && !process.env.DATABASE_URL ? DATABASE_FREE_FILES : [];

export default defineProject({
  root,
  test: {
    ...apiTest,
    name: 'api',
    include: ['test/**/*.test.ts'],
    exclude: [...OWN_PROCESS_FILES, ...leftToPostgres],
    isolate: false,
  },
});
