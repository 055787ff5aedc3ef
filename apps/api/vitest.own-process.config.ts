import { defineProject } from 'vitest/config';
import { OWN_PROCESS_FILES } from './test/own-process.ts';
import { apiTest } from './vitest.config.ts';

const root = new URL('.', import.meta.url).pathname;

/** The API test files that need a process of their own (test/own-process.ts, decision 096). */
export default defineProject({
  root,
  test: {
    ...apiTest,
    name: 'api-own-process',
    include: OWN_PROCESS_FILES,
    isolate: true,
  },
});
