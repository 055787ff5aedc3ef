import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRoot } from './import-graph.ts';

// The repository explains itself: a comment names the decision record or the test that holds a
// rule, never an issue number (the tracker is not part of the repository).
const repo = join(apiRoot, '../..');
const SOURCE_DIRS = ['apps/api/src', 'apps/web/src', 'apps/web/build', 'packages/contract/src', 'scripts', 'bench', 'deploy'];
const ISSUE_NUMBER = /\bissues? #?\d+/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|css|sql|conf|yml|yaml)$/.test(name) ? [path] : [];
  });
}

export function linesNamingIssues(text: string): number[] {
  return text.split('\n').flatMap((line, i) => (ISSUE_NUMBER.test(line) ? [i + 1] : []));
}

describe('source comments name decisions, not issue numbers', () => {
  const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(join(repo, dir)));

  it('reads the source', () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it('finds no "issue N" in any source file', () => {
    const found = files.flatMap((file) =>
      linesNamingIssues(readFileSync(file, 'utf8')).map((line) => `${relative(repo, file)}:${line}`),
    );
    expect(found).toEqual([]);
  });

  it('would find one (the check can fail)', () => {
    expect(linesNamingIssues('// see issue 33\nconst a = 1; // Issue 14 item 2\n// tissue 3')).toEqual([1, 2]);
  });
});
