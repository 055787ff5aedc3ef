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

/**
 * `npm run test:unit` (scripts/test-unit.ts, decisions 099 and 101) runs Vitest twice (three times
 * when the first fails). BETDESK_SHARED_FORKS=1: the `api` project alone, in `workers` forks that each run file after file on the modules they
 * imported once (Vitest reads the pool's `isolate` here, in the root config, not in a project). Every
 * fork stays up for the whole run: with fewer kept than started, Tinypool ends an idle fork and the
 * run fails with "Terminating worker thread" (vitest-dev/vitest#8564). BETDESK_SHARED_FORKS=0: the
 * other projects, a process per file. Unset (a plain `npx vitest`), every project, a process per file.
 */
const sharedForks = process.env.BETDESK_SHARED_FORKS;
const api = 'apps/api/vitest.config.ts';
const isolated = ['apps/api/vitest.own-process.config.ts', ...(webTestsHere ? ['apps/web'] : [])];

export default defineConfig({
  test: {
    projects: sharedForks === '1' ? [api] : sharedForks === '0' ? isolated : [api, ...isolated],
    maxWorkers: workers,
    minWorkers: sharedForks === '1' ? workers : 1,
    ...(sharedForks === '1' ? { poolOptions: { forks: { isolate: false } } } : {}),
  },
});
