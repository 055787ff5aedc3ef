import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run in as many forks as the machine has cores (Vitest's own default is one fewer, which
 * on CI's two cores is a single fork). On PostgreSQL a file spends much of its time waiting for the
 * server, so one more fork keeps both cores busy. `TEST_WORKERS` overrides.
 */
const workers = Number(process.env.TEST_WORKERS) || availableParallelism() + (process.env.DATABASE_URL ? 1 : 0);

export default defineConfig({
  test: {
    projects: ['apps/api/vitest.config.ts', 'apps/api/vitest.own-process.config.ts', 'apps/web'],
    maxWorkers: workers,
    minWorkers: 1,
  },
});
