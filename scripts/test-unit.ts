/**
 * npm test's unit and API step (`npm run test:unit`), as Vitest runs one after the other (decisions
 * 099 and 101):
 *
 * 1. the API files that share their fork's loaded modules (project `api`): a few forks, each running
 *    file after file (BETDESK_SHARED_FORKS, read by vitest.config.ts), so the source is imported once
 *    per fork, not once per file;
 * 2. only if that run fails: the same files again, a process per file (Vitest's default, the layout
 *    every CI run passed with before decision 099), and this run's outcome is the step's. A real
 *    failure fails here too; one that only a shared fork shows is named in the output, with the first
 *    run's failures above it, so it stays visible (decision 101);
 * 3. the files that need a fresh process each (project `api-own-process`: fake clocks, mocked modules,
 *    the process's memory) and the web app's files, a process per file; if that run fails, it runs
 *    once more and the second run decides, said in the output as for 2 (decision 101).
 *
 * Two kinds of run, because Vitest takes the forks pool's isolation from the root config, for every
 * project at once; all in child processes, so no worker thread shares the main Vitest process's event
 * loop, which answers every worker's reports. Every run goes, and the step fails if the API files
 * failed a process per file too, or if the own-process or web files failed.
 * With arguments (files, `--project`, any Vitest flag) it is one plain `vitest run` with them.
 */
import { spawnSync } from 'node:child_process';

function vitest(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const result = spawnSync('npx', ['vitest', 'run', ...args], { stdio: 'inherit', env });
  return result.status ?? 1;
}

const args = process.argv.slice(2);
if (args.length > 0) process.exit(vitest(args));

/**
 * Runs `first`; if it fails, says so under `marker` (.ci/run repeats those lines at the end of its
 * output) and runs `again`, whose exit is the step's.
 */
function decidedByASecondRun(marker: string, what: string, first: () => number, how: string, again: () => number): number {
  const exit = first();
  if (exit === 0) return exit;
  console.log(`\n== ${marker}: ${what} failed (exit ${exit}); they run again, ${how}, and that run decides (decision 101)\n`);
  const second = again();
  console.log(`\n== ${marker}: the run again, ${how}, exit ${second}\n`);
  return second;
}

const { BETDESK_SHARED_FORKS: _unset, ...plain } = process.env;
const api = decidedByASecondRun(
  'shared-fork fallback',
  'the api files in shared forks',
  () => vitest([], { ...process.env, BETDESK_SHARED_FORKS: '1' }),
  'a process per file',
  () => vitest(['--project', 'api'], plain),
);
const isolatedRun = () => vitest([], { ...process.env, BETDESK_SHARED_FORKS: '0' });
const isolated = decidedByASecondRun('second run', 'the own-process and web files', isolatedRun, 'each in a fresh process', isolatedRun);
process.exit(api || isolated);
