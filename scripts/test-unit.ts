/**
 * npm test's unit and API step (`npm run test:unit`), as two Vitest runs one after the other
 * (decision 099):
 *
 * 1. the API files that share their fork's loaded modules (project `api`): a few forks, each running
 *    file after file (BETDESK_SHARED_FORKS, read by vitest.config.ts), so the source is imported once
 *    per fork, not once per file;
 * 2. the files that need a fresh process each (project `api-own-process`: fake clocks, mocked modules,
 *    the process's memory) and the web app's files, a process per file as Vitest's default.
 *
 * Two runs, because Vitest takes the forks pool's isolation from the root config, for every project
 * at once; and both in child processes, so no worker thread shares the main Vitest process's event
 * loop, which answers every worker's reports. Both runs always go, and the step fails if either does.
 * With arguments (files, `--project`, any Vitest flag) it is one plain `vitest run` with them.
 *
 * On the embedded database (no DATABASE_URL) it is one plain `vitest run`, a process per file
 * (decision 101): there every file's database runs inside its test process, and the shared forks ended
 * CI's PGlite run with a failure twice in three tries where the process-per-file run never had.
 */
import { spawnSync } from 'node:child_process';

function vitest(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const result = spawnSync('npx', ['vitest', 'run', ...args], { stdio: 'inherit', env });
  return result.status ?? 1;
}

const args = process.argv.slice(2);
if (args.length > 0 || !process.env.DATABASE_URL) process.exit(vitest(args));

const shared = vitest([], { ...process.env, BETDESK_SHARED_FORKS: '1' });
const isolated = vitest([], { ...process.env, BETDESK_SHARED_FORKS: '0' });
process.exit(shared || isolated);
