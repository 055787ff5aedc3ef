import { is, Param, Placeholder, SQL, sql, type Query, type SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.ts';

/**
 * A statement of a hot path whose text depends only on its `shape`: `build` writes it with a
 * `sql.placeholder` for every value, once per shape and process; each run fills the placeholders
 * from `values` (decision 049). Building a composed statement's text was a fifth of the API's CPU
 * per C2B confirmation (decision 049).
 */
export interface FixedStatement {
  /** Names the text: two statements of the same shape must build the same text. */
  shape: string;
  /** The placeholders' values, by placeholder name. */
  values: Record<string, unknown>;
  build(): SQLWrapper;
}

/**
 * A row's values as placeholders named `${prefix}${key}`, the values that fill them, and the row's
 * shape (its keys). A key whose value is undefined is left out (the column's default); a null is
 * written as `null` in the text (the shape says which keys are null); a value that is SQL (`now()`)
 * stays in the text, so it must not vary between runs of the same shape: a value
 * inside it would be kept in the text, which `fixedRows` refuses when it builds the statement.
 */
export function asPlaceholders<R extends Record<string, unknown>>(
  row: R,
  prefix: string,
): { row: { [K in keyof R]: SQL | Placeholder }; values: Record<string, unknown>; shape: string } {
  const placed: Record<string, unknown> = {};
  const values: Record<string, unknown> = {};
  const keys: string[] = [];
  for (const [key, value] of Object.entries(row)) {
    if (value === undefined) continue;
    if (value === null) {
      // In the text: drizzle fills a placeholder through the column's encoder without its null check,
      // which throws on a timestamp and would make a jsonb null the JSON 'null'.
      placed[key] = sql`null`;
      keys.push(`${key}=null`);
    } else if (is(value, SQL)) {
      placed[key] = value;
      keys.push(`${key}=sql`);
    } else {
      placed[key] = sql.placeholder(`${prefix}${key}`);
      values[`${prefix}${key}`] = value;
      keys.push(key);
    }
  }
  return { row: placed as { [K in keyof R]: SQL | Placeholder }, values, shape: keys.join(',') };
}

const dialect = new PgDialect();
/** Texts kept at most; past that a shape is built for each run (shapes come from a path's branches: a few dozen). */
const MAX_SHAPES = 500;
const texts = new Map<string, Query>();

const isPlaceholder = (param: unknown) => is(param, Placeholder) || (is(param, Param) && is(param.value, Placeholder));

/** The text of a statement of this shape, built and checked the first time. */
function textOf(statement: FixedStatement): Query {
  const known = texts.get(statement.shape);
  if (known) return known;
  const query = dialect.sqlToQuery(statement.build().getSQL());
  const fixedValue = query.params.findIndex((param) => !isPlaceholder(param));
  if (fixedValue >= 0) {
    throw new Error(`The statement "${statement.shape}" holds a value that is not a placeholder ($${fixedValue + 1}): every run would send it`);
  }
  if (texts.size < MAX_SHAPES) texts.set(statement.shape, query);
  return query;
}

/** Runs a fixed statement on the database or the open transaction; answers its rows with the database's column names. */
export async function fixedRows<T>(db: Queryable, statement: FixedStatement): Promise<T[]> {
  const prepared = db._.session.prepareQuery(textOf(statement), undefined, undefined, false);
  const result = (await prepared.execute(statement.values)) as { rows: T[] };
  return result.rows;
}
