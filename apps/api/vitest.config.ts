import { defineProject } from 'vitest/config';
import { OWN_PROCESS_FILES } from './test/own-process.ts';

const root = new URL('.', import.meta.url).pathname;

/**
 * The API tests (decision 096). Most files share their fork's loaded modules (`isolate: false`): each
 * file still builds its own app on its own database, but the source is imported once per fork, not
 * once per file, which was about half of the suite's CPU. The files of test/own-process.ts (fake
 * timers, `vi.mock`, the process's memory) run in the project beside this one, each in a fresh process.
 */
export const apiTest = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
  globalSetup: ['test/global-setup.ts'],
} as const;

export default defineProject({
  root,
  test: {
    ...apiTest,
    name: 'api',
    include: ['test/**/*.test.ts'],
    exclude: OWN_PROCESS_FILES,
    isolate: false,
  },
});
