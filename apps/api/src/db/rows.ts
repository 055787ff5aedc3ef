import type { SQL } from 'drizzle-orm';
import type { Queryable } from './client.ts';

/** Runs raw SQL through drizzle (both drivers answer `{ rows }`) and returns its rows. */
export async function rows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
