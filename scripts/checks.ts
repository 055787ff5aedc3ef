/**
 * npm test's first step: the type check and lint (`npm run typecheck`, `npm run lint`). `.ci/run` runs
 * both once, beside its two `npm test` runs (its exit fails CI as theirs do), and passes the
 * fingerprint of the tree it checks in BETDESK_CHECKED_TREE; a run whose tree has that fingerprint
 * skips them, any other runs them (a changed file, or no fingerprint at all, as with the README's
 * plain `npm test`).
 * `--fingerprint` prints the tree's fingerprint: the commit, the uncommitted diff and the untracked files.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';

function git(args: string[]): string {
  const result = spawnSync('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return result.status === 0 ? result.stdout : '';
}

function fingerprint(): string {
  const head = git(['rev-parse', 'HEAD']).trim();
  if (!head) return '';
  const hash = createHash('sha256');
  hash.update(head);
  hash.update(git(['diff', 'HEAD', '--binary']));
  hash.update(git(['ls-files', '--others', '--exclude-standard']));
  return hash.digest('hex');
}

function run(script: string): number {
  return spawnSync('npm', ['run', script], { stdio: 'inherit' }).status ?? 1;
}

if (process.argv.includes('--fingerprint')) {
  process.stdout.write(`${fingerprint()}\n`);
  process.exit(0);
}
const checked = process.env.BETDESK_CHECKED_TREE;
if (checked && checked === fingerprint()) {
  console.log('The type check and lint of this very tree are run once by .ci/run, beside this run (BETDESK_CHECKED_TREE): not here.');
  process.exit(0);
}
process.exit(run('typecheck') || run('lint'));
