import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRoot } from './import-graph.ts';

// Issue 32, item 2: a module's statements live in its queries.ts or queries/ folder (or db/'s shared toolkit); its
// service and the other files compose them. A statement is a call of select/insert/update/delete/
// execute on the database (`db.`, `tx.`, `deps.db.`) or opening a line of a chain, a `rows(...)`
// read, or a sql`...` template. A hash's or a cipher's `.update(data)` and a Set's `.delete(item)`
// are not (their receiver is neither).
const STATEMENT = /(?:^[ \t]*|\b(?:db|tx))\.(select|insert|update|delete|execute)\(|\brows<|\brows\(|sql`/gm;


const modulesDir = join(apiRoot, 'src/modules');

/** Every module: each keeps every statement in its queries (the last ones moved in issue 32). */
const MODULES = readdirSync(modulesDir).filter((name) => statSync(join(modulesDir, name)).isDirectory());

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The statements in a source text. */
function statementsIn(source: string): number {
  return source.match(STATEMENT)?.length ?? 0;
}

/**
 * Whether a file (relative to its module) is the module's queries: its queries.ts, or the files of
 * its queries/ folder when a module with many topics splits them (sms/queries/outbox.ts ...).
 */
export function isQueriesFile(file: string): boolean {
  return file === 'queries.ts' || file.startsWith('queries/');
}

/** A module's files other than its queries that hold statements, with how many each. */
function statementsOutsideQueries(module: string): Record<string, number> {
  const dir = join(modulesDir, module);
  return Object.fromEntries(
    tsFiles(dir)
      .map((path) => path.slice(dir.length + 1))
      .filter((file) => !isQueriesFile(file))
      .map((file) => [file, statementsIn(readFileSync(join(dir, file), 'utf8'))] as const)
      .filter(([, n]) => n > 0),
  );
}

describe("where a module's SQL lives (ARCHITECTURE.md, issue 32)", () => {
  it.each(MODULES)('%s keeps every statement in its queries.ts', (module) => {
    expect(statementsOutsideQueries(module)).toEqual({});
  });

  it('reads every module', () => {
    expect(MODULES.length).toBeGreaterThan(30);
    expect(MODULES).toEqual(expect.arrayContaining(['bets', 'sms', 'tax', 'tips-subscriptions']));
  });

  it('counts the statements a file builds (the check can fail)', () => {
    expect(statementsIn("await tx.update(bets).set({ status: 'closed' });")).toBe(1);
    expect(statementsIn('const [r] = await rows<{ n: number }>(db, sql`select count(*) as n from bets`);')).toBe(2);
    expect(statementsIn("await db\n  .select()\n  .from(bets);")).toBe(1);
    expect(statementsIn("await deps.db.insert(bets).values(row);")).toBe(1);
    expect(statementsIn("createHash('sha256').update(data).digest('hex');")).toBe(0);
    expect(statementsIn('this.hash.update(chunk); done(null, cipher.update(chunk));')).toBe(0);
    expect(statementsIn('return () => listeners.delete(listener);')).toBe(0);
  });

  it("takes a module's queries.ts and its queries/ folder as its queries, and nothing else", () => {
    expect(isQueriesFile('queries.ts')).toBe(true);
    expect(isQueriesFile('queries/outbox.ts')).toBe(true);
    expect(isQueriesFile('service.ts')).toBe(false);
    expect(isQueriesFile('backlog/queries.ts')).toBe(false);
    expect(isQueriesFile('old-queries.ts')).toBe(false);
  });
});
