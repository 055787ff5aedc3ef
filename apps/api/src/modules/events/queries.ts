import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';

/** NOTIFY on `channel` with `payload`, delivered to the listeners when the caller's transaction commits. */
export async function notify(db: Queryable, channel: string, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}
