import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';

/** NOTIFY on `channel` with `payload`, delivered to the listeners when the caller's transaction commits. */
export async function notify(db: Queryable, channel: string, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/** NOTIFY on `channel` once per payload, in order, in one statement (its own transaction when `db` is the pool). */
export async function notifyAll(db: Queryable, channel: string, payloads: readonly string[]): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, payload) from json_array_elements_text(${JSON.stringify(payloads)}::json) as payload`);
}
