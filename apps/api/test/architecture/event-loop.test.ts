import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRoot } from './import-graph.ts';

/**
 * An API test file runs a command without holding its process's event loop (decision 102): Vitest's
 * worker reports to its runner with a fixed 60 s for the answer, and a synchronous run of a command
 * that boots the app (`npm run backup`, the runbook's restore) took past that on a busy CI machine,
 * failing the whole run with every test passed. Such commands go through test/commands.ts's
 * runCommand. A synchronous call stays only for a command that boots nothing, named here with why.
 */
const SYNCHRONOUS_CALLS_ALLOWED: Record<string, string> = {
  'test/operations/deploy.test.ts': 'sh lists the deploy files (a shell builtin loop, no app)',
  'test/operations/metrics-and-shutdown.test.ts': "promtool's version and its check of one metrics text",
};
const SYNCHRONOUS_CALL = /\b(spawnSync|execFileSync|execSync)\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

describe('commands run from API tests', () => {
  const files = testFiles(join(apiRoot, 'test')).map((path) => relative(apiRoot, path));
  const calling = files.filter((file) => SYNCHRONOUS_CALL.test(readFileSync(join(apiRoot, file), 'utf8')));

  it('run without holding the event loop, but for the short commands named here', () => {
    expect(calling.filter((file) => !(file in SYNCHRONOUS_CALLS_ALLOWED))).toEqual([]);
  });

  it('name only files that still make such a call', () => {
    expect(Object.keys(SYNCHRONOUS_CALLS_ALLOWED).filter((file) => !calling.includes(file))).toEqual([]);
  });
});
