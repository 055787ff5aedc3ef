import { getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.ts';
import { rows } from './rows.ts';
import * as schema from './schema/index.ts';
import { isSealedColumn, SEALED_SUFFIX } from './schema/sealed.ts';

/** One column of the schema that holds values sealed with SECRETS_KEY, and the key of its rows. */
export interface SealedColumn {
  table: string;
  key: string;
  column: string;
}

/**
 * Every sealed column, read from the schema (the `sealedText` columns), in a stable order. A table
 * with a sealed column must have a one-column primary key: the rotation re-seals row by row.
 */
export function sealedColumns(): SealedColumn[] {
  const found: SealedColumn[] = [];
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const columns = Object.values(getTableColumns(value));
    const sealed = columns.filter(isSealedColumn);
    if (sealed.length === 0) continue;
    const primary = columns.filter((c) => c.primary);
    if (primary.length !== 1) throw new Error(`${getTableName(value)} holds a sealed column but has no one-column primary key`);
    for (const column of sealed) found.push({ table: getTableName(value), key: primary[0]!.name, column: column.name });
  }
  return found.sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));
}

/**
 * Re-seals one value: the fields of a JSON value whose names end in `_sealed` (at any depth), with
 * `reseal`; returns the new value and how many it re-sealed.
 */
function resealFields(value: unknown, reseal: (sealed: string, field: string) => string): { value: unknown; count: number } {
  if (Array.isArray(value)) {
    let count = 0;
    const out = value.map((item) => {
      const done = resealFields(item, reseal);
      count += done.count;
      return done.value;
    });
    return { value: out, count };
  }
  if (typeof value !== 'object' || value === null) return { value, count: 0 };
  let count = 0;
  const out: Record<string, unknown> = {};
  for (const [field, inner] of Object.entries(value)) {
    if (field.endsWith(SEALED_SUFFIX) && typeof inner === 'string' && inner !== '') {
      out[field] = reseal(inner, field);
      count += 1;
    } else {
      const done = resealFields(inner, reseal);
      out[field] = done.value;
      count += done.count;
    }
  }
  return { value: out, count };
}

/**
 * Re-seals every sealed value in the caller's transaction, each through `reseal` (which opens it with
 * the old key and seals it with the new, or throws): every sealed column of the schema, and every
 * `*_sealed` field of a settings value (the M-Pesa initiator's password). Rows are locked as read.
 * Returns the count per place: the table, or `settings.<key>`.
 */
export async function resealEverySealedValue(tx: Queryable, reseal: (sealed: string, where: string) => string): Promise<Record<string, number>> {
  const done: Record<string, number> = {};
  for (const { table, key, column } of sealedColumns()) {
    const found = await rows<{ id: number | string; sealed: string }>(
      tx,
      sql`select ${sql.identifier(key)} as id, ${sql.identifier(column)} as sealed from ${sql.identifier(table)}
           where ${sql.identifier(column)} is not null and ${sql.identifier(column)} <> '' order by 1 for update`,
    );
    for (const row of found) {
      const resealed = reseal(row.sealed, `${table} ${key}=${row.id}`);
      await tx.execute(sql`update ${sql.identifier(table)} set ${sql.identifier(column)} = ${resealed} where ${sql.identifier(key)} = ${row.id}`);
    }
    done[table] = (done[table] ?? 0) + found.length;
  }
  const settings = await rows<{ key: string; value: unknown }>(tx, sql`select key, value from settings order by key for update`);
  for (const setting of settings) {
    const { value, count } = resealFields(setting.value, (sealed, field) => reseal(sealed, `settings ${setting.key}.${field}`));
    if (count === 0) continue;
    await tx.execute(sql`update settings set value = ${JSON.stringify(value)}::jsonb where key = ${setting.key}`);
    done[`settings.${setting.key}`] = count;
  }
  return done;
}
