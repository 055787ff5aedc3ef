import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRoot } from './import-graph.ts';
import { DATABASE_FREE_FILES, MENTIONS_A_DATABASE } from '../database-free.ts';
import { OWN_PROCESS_FILES } from '../own-process.ts';

// The files CI runs on one database only (test/database-free.ts, decision 101) must open none: neither
// the file nor any module of the test folder it imports may mention a database.
function testModulesOf(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = readFileSync(join(apiRoot, file), 'utf8');
  const imported = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)]
    .map((match) => relative(apiRoot, resolve(dirname(join(apiRoot, file)), match[1]!)))
    .filter((path) => path.startsWith('test/') && existsSync(join(apiRoot, path)));
  return [file, ...imported.flatMap((path) => testModulesOf(path, seen))];
}

describe('the API test files that open no database', () => {
  it('exist, and none also needs a process of its own', () => {
    expect(DATABASE_FREE_FILES.filter((file) => !existsSync(join(apiRoot, file)))).toEqual([]);
    expect(DATABASE_FREE_FILES.filter((file) => OWN_PROCESS_FILES.includes(file))).toEqual([]);
  });

  it('mention no database, nor do the test modules they import', () => {
    const mentioning = DATABASE_FREE_FILES.flatMap((file) => testModulesOf(file))
      // This file and the list name the words they look for.
      .filter((path) => path !== 'test/database-free.ts' && path !== 'test/architecture/database-free.test.ts')
      .filter((path) => MENTIONS_A_DATABASE.test(readFileSync(join(apiRoot, path), 'utf8')));
    expect(mentioning).toEqual([]);
  });

  it('would catch a file that opens one', () => {
    expect(MENTIONS_A_DATABASE.test('const app = await createTestApp();')).toBe(true);
    expect(MENTIONS_A_DATABASE.test('const files = await databaseForProcesses();')).toBe(true);
    expect(MENTIONS_A_DATABASE.test('const { gateway } = await ratibaWorld(app);')).toBe(true);
    expect(MENTIONS_A_DATABASE.test("league: { country: 'World' }")).toBe(false);
  });
});
