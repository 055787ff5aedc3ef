import { desc, eq, sql } from 'drizzle-orm';
import { booksPeriods, users, type BooksSnapshot } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { alias } from 'drizzle-orm/pg-core';

/**
 * The books periods' rows (decision 075): a month once an admin has asked to close it.
 * Lives in: apps/api/src/modules/books/queries.ts
 */

export type BooksPeriodRow = typeof booksPeriods.$inferSelect;

/** A month's period, locked until the transaction ends; undefined when nobody asked to close it. */
export async function lockPeriod(tx: Queryable, month: string): Promise<BooksPeriodRow | undefined> {
  const [row] = await tx.select().from(booksPeriods).where(eq(booksPeriods.month, month)).for('update');
  return row;
}

export async function periodOf(db: Queryable, month: string): Promise<BooksPeriodRow | undefined> {
  const [row] = await db.select().from(booksPeriods).where(eq(booksPeriods.month, month));
  return row;
}

/** Asks to close a month: a new period, or one reopened before. */
export async function askClose(tx: Queryable, month: string, reference: string, by: number): Promise<void> {
  const at = new Date();
  await tx
    .insert(booksPeriods)
    .values({ month, state: 'closing', returnReference: reference, askedBy: by, askedAt: at })
    .onConflictDoUpdate({ target: booksPeriods.month, set: { state: 'closing', returnReference: reference, askedBy: by, askedAt: at, confirmedBy: null } });
}

export async function markClosed(tx: Queryable, period: BooksPeriodRow, by: number, snapshot: BooksSnapshot): Promise<void> {
  // The database's clock, as the documents' created_at: the tax point compares the two.
  await tx
    .update(booksPeriods)
    .set({ state: 'closed', closedBy: period.askedBy, closedAt: sql`now()`, firstClosedAt: sql`coalesce(${booksPeriods.firstClosedAt}, now())`, confirmedBy: by, snapshot })
    .where(eq(booksPeriods.month, period.month));
}

export async function askReopen(tx: Queryable, month: string, by: number): Promise<void> {
  await tx.update(booksPeriods).set({ state: 'reopening', askedBy: by, askedAt: new Date(), confirmedBy: null }).where(eq(booksPeriods.month, month));
}

/** Reopened: the month reads its rows again; when it first closed is kept (what was posted after it stays where it was posted). */
export async function markOpen(tx: Queryable, month: string, by: number): Promise<void> {
  await tx.update(booksPeriods).set({ state: 'open', confirmedBy: by, closedBy: null, closedAt: null, snapshot: null }).where(eq(booksPeriods.month, month));
}

const asker = alias(users, 'asker');
const closer = alias(users, 'closer');
const confirmer = alias(users, 'confirmer');

/** Every period, newest month first, with the names of who asked, closed and confirmed. */
export function periodsWithNames(db: Queryable) {
  return db
    .select({
      month: booksPeriods.month,
      state: booksPeriods.state,
      returnReference: booksPeriods.returnReference,
      askedAt: booksPeriods.askedAt,
      closedAt: booksPeriods.closedAt,
      askedBy: asker.name,
      closedBy: closer.name,
      confirmedBy: confirmer.name,
    })
    .from(booksPeriods)
    .innerJoin(asker, eq(asker.id, booksPeriods.askedBy))
    .leftJoin(closer, eq(closer.id, booksPeriods.closedBy))
    .leftJoin(confirmer, eq(confirmer.id, booksPeriods.confirmedBy))
    .orderBy(desc(booksPeriods.month));
}
