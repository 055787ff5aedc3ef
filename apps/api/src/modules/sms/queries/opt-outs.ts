import { eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { rows } from '../../../db/rows.ts';
import { phoneHistory } from './phone-history.ts';
import { betCategories, smsOptOutEvents, smsOptOuts, type OptOutSource } from '../../../db/schema/index.ts';

/**
 * SQL true when the phone expression must not get a message of this class: it opted out of
 * everything, of the given category's tips, or (for a promotional message) of offers. Each test is a
 * primary-key lookup.
 */
export function optedOutSql(phone: SQL, betCategoryId?: number | null, promotional = false): SQL {
  const keys = ['all', ...(betCategoryId ? [String(betCategoryId)] : []), ...(promotional ? ['promotional'] : [])];
  const scopes = sql`(${sql.join(
    keys.map((k) => sql`${k}`),
    sql`, `,
  )})`;
  return sql`exists (select 1 from ${smsOptOuts} o where o.phone = ${phone} and o.scope in ${scopes})`;
}

/** One change of a phone's opt-outs, as its history keeps it. */
export interface OptOutEvent {
  phone: string;
  /** 'all', 'promotional' or a bet category's id. */
  scope: string;
  action: 'opt-out' | 'opt-in';
  source: OptOutSource;
  reason: string | null;
  createdBy: number | null;
}

/** Adds an opt-out of one scope; returns whether the phone did not hold it yet. */
export async function insertOptOut(
  db: Queryable,
  o: { phone: string; scope: string; betCategoryId: number | null; source: OptOutSource; createdBy: number | null },
): Promise<boolean> {
  const inserted = await db.insert(smsOptOuts).values(o).onConflictDoNothing().returning({ phone: smsOptOuts.phone });
  return inserted.length > 0;
}

/** Removes every opt-out of the phone; returns the scopes it held. */
export async function deleteOptOuts(db: Queryable, phone: string): Promise<string[]> {
  const cleared = await db.delete(smsOptOuts).where(eq(smsOptOuts.phone, phone)).returning({ scope: smsOptOuts.scope });
  return cleared.map((c) => c.scope);
}

/** Writes changes into the phones' opt-out history (none: nothing written). */
export async function insertOptOutEvents(db: Queryable, events: OptOutEvent[]): Promise<void> {
  if (events.length > 0) await db.insert(smsOptOutEvents).values(events);
}

/** The opt-outs a phone holds, oldest first, with the code of a category's. */
export function optOutsOf(db: Queryable, phone: string) {
  return db
    .select({ scope: smsOptOuts.scope, code: betCategories.code, source: smsOptOuts.source, at: smsOptOuts.createdAt })
    .from(smsOptOuts)
    .leftJoin(betCategories, eq(betCategories.id, smsOptOuts.betCategoryId))
    .where(eq(smsOptOuts.phone, phone))
    .orderBy(smsOptOuts.createdAt);
}

/** The last `limit` changes of a phone's opt-outs, newest first, with the staff member who made each. */
export function optOutHistory(db: Queryable, phone: string, limit: number) {
  const events = smsOptOutEvents;
  return phoneHistory(db, { table: events, id: events.id, phone: events.phone, by: events.createdBy, at: events.createdAt }, phone, {
    action: events.action,
    scope: events.scope,
    source: events.source,
    reason: events.reason,
  }).limit(limit);
}

/** Whether the phone must not get a message of this class (see optedOutSql). */
export async function phoneOptedOut(db: Queryable, phone: string, betCategoryId?: number | null, promotional = false): Promise<boolean> {
  const [row] = await rows<{ out: boolean }>(db, sql`select ${optedOutSql(sql`${phone}`, betCategoryId, promotional)} as out`);
  return row?.out === true;
}
