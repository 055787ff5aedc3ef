import { and, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import { trialUses } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

export type TrialUse = typeof trialUses.$inferSelect;

/** Records a trial; null when this phone already had this package's trial (the unique index). */
export async function insertTrialUse(db: Queryable, values: typeof trialUses.$inferInsert): Promise<TrialUse | null> {
  const [row] = await db.insert(trialUses).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function trialUseOf(db: Queryable, packageId: number, phoneHash: string): Promise<TrialUse | null> {
  const [found] = await db
    .select()
    .from(trialUses)
    .where(and(eq(trialUses.packageId, packageId), eq(trialUses.phoneHash, phoneHash)));
  return found ?? null;
}

export async function setStandingOrder(db: Queryable, id: number, standingOrderId: number): Promise<void> {
  await db.update(trialUses).set({ standingOrderId }).where(eq(trialUses.id, id));
}

export async function deleteTrialUse(db: Queryable, id: number): Promise<void> {
  await db.delete(trialUses).where(eq(trialUses.id, id));
}

/** Trials started, and trials converted, in [start, end): each counted on its own day. */
export async function trialCounts(db: Queryable, start: Date, end: Date): Promise<{ started: number; converted: number }> {
  const [started] = await db
    .select({ n: sql<string | number>`count(*)` })
    .from(trialUses)
    .where(and(gte(trialUses.createdAt, start), lt(trialUses.createdAt, end)));
  const [converted] = await db
    .select({ n: sql<string | number>`count(*)` })
    .from(trialUses)
    .where(and(isNotNull(trialUses.convertedAt), gte(trialUses.convertedAt, start), lt(trialUses.convertedAt, end)));
  return { started: Number(started?.n ?? 0), converted: Number(converted?.n ?? 0) };
}
