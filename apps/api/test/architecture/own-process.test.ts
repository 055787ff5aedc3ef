import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRoot } from './import-graph.ts';
import { NEEDS_OWN_PROCESS, OWN_PROCESS_FILES } from '../own-process.ts';

// Most API test files share their fork's modules (decision 096); a file that fakes the clock, mocks
// a module or measures the process's memory must run in a process of its own, so it must be listed.
function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('test files that need a process of their own', () => {
  const files = testFiles(join(apiRoot, 'test')).map((path) => relative(apiRoot, path));
  const needing = files.filter((file) => NEEDS_OWN_PROCESS.test(readFileSync(join(apiRoot, file), 'utf8')));

  it('finds the ones that fake the clock, mock a module or measure memory', () => {
    expect(needing).toContain('test/operations/slow-boot.test.ts');
    expect(needing).toContain('test/backups/streaming.test.ts');
  });

  it('lists every one of them in test/own-process.ts', () => {
    expect(needing.filter((file) => !OWN_PROCESS_FILES.includes(file))).toEqual([]);
  });

  it('lists only files that exist', () => {
    expect(OWN_PROCESS_FILES.filter((file) => !files.includes(file))).toEqual([]);
  });
});
