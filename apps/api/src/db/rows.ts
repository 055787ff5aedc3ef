import type { SQL } from 'drizzle-orm';
import type { Queryable } from './client.ts';

/** A timestamp column of a raw row as the contract's ISO text. */
export const iso = (value: unknown): string => new Date(value as string).toISOString();
export const isoOrNull = (value: unknown): string | null => (value == null ? null : iso(value));

/** Runs raw SQL through drizzle (both drivers answer `{ rows }`) and returns its rows. */
export async function rows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * One page of rows read with `count(*) over() as total_records`, and the total of the whole list.
 * A page past the end has no row to carry the total, so then `countAll` (a query answering one row
 * with a `total` column) counts the list itself.
 */
export async function pageWithTotal<T extends { total_records?: unknown }>(
  db: Queryable,
  page: { query: SQL; offset: number },
  countAll: SQL,
): Promise<{ found: T[]; total: number }> {
  const found = await rows<T>(db, page.query);
  if (found.length > 0 || page.offset === 0) return { found, total: Number(found[0]?.total_records ?? 0) };
  const [counted] = await rows<{ total: number | string }>(db, countAll);
  return { found, total: Number(counted?.total ?? 0) };
}
