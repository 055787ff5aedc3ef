import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run in one more fork than the machine has cores (Vitest's own default is one fewer, which
 * on CI's two cores is a single fork): a file spends much of its time waiting (for PostgreSQL, for a
 * worker process it started, for a grace period), and the extra fork keeps both cores busy meanwhile.
 * `TEST_WORKERS` overrides.
 */
const workers = Number(process.env.TEST_WORKERS) || availableParallelism() + 1;

/**
 * CI's two runs (CI_SPLIT=1, set by .ci/run): the web app's tests touch no database, so only the
 * PGlite run has them, whose browser half is the shorter (decision 097); `npm test` alone runs every
 * project.
 */
const webTestsHere = !(process.env.CI_SPLIT === '1' && process.env.DATABASE_URL);

export default defineConfig({
  test: {
    projects: ['apps/api/vitest.config.ts', 'apps/api/vitest.own-process.config.ts', ...(webTestsHere ? ['apps/web'] : [])],
    maxWorkers: workers,
    minWorkers: 1,
  },
});
