import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { apiRoot } from './import-graph.ts';

/**
 * The client-owned tables of decision 026: each carries its client's staff member in
 * `assigned_user_id`, so a staff member's read of them goes through the scope door (src/db/scope.ts).
 * Named as the SQL text writes them and as the schema's drizzle exports.
 */
const OWNED_SQL = ['clients', 'bets', 'bonuses', 'bonus_payments', 'subscriptions', 'mpesa_payments'];
const OWNED_DRIZZLE = ['clients', 'bets', 'bonuses', 'bonusPayments', 'subscriptions', 'mpesaPayments'];

/** A read of an owned table: `from`/`join` in SQL text, the table interpolated, or drizzle's `.from(table)`. */
const READS_OWNED = new RegExp(
  [
    `\\b(from|join)\\s+(${OWNED_SQL.join('|')})\\b`,
    `\\b(from|join)\\s+\\$\\{(${OWNED_DRIZZLE.join('|')})\\}`,
    `\\.(from|innerJoin|leftJoin)\\((${OWNED_DRIZZLE.join('|')})\\)`,
  ].join('|'),
  'i',
);

/** A parameter that says whose rows are read: the door's own types, or a filter holding a Scope. */
const SAYS_WHOSE = /\b(Scope|ScopedWhere|ClientFilter)\b/;

/** The functions (`file#name`) of a source text that read a client-owned table without a scope parameter. */
export function unscopedReads(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const check = (name: string, fn: ts.SignatureDeclaration & { body?: ts.Node | undefined }) => {
    if (!fn.body || !READS_OWNED.test(fn.body.getText(sf))) return;
    if (fn.parameters.some((p) => SAYS_WHOSE.test(p.type?.getText(sf) ?? ''))) return;
    found.push(`${file}#${name}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name) check(node.name.text, node);
    else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) {
      check(node.name.text, node.initializer);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every function under src/modules that reads a client-owned table without saying whose rows. */
export function unscopedReadsOfModules(): string[] {
  return tsFiles(join(apiRoot, 'src/modules')).flatMap((path) =>
    unscopedReads(relative(join(apiRoot, 'src/modules'), path), readFileSync(path, 'utf8')),
  );
}
