import { and, eq, isNull, sql } from 'drizzle-orm';
import { recoveryCodes, userSecondFactors } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/** A user's second factor (secret sealed, enabled or still pending), undefined when none. */
export async function secondFactorOf(db: Queryable, userId: number) {
  const [row] = await db.select().from(userSecondFactors).where(eq(userSecondFactors.userId, userId));
  return row;
}

/**
 * Takes a TOTP time step for the user: true once per step, and only forward, so a code seen over
 * a shoulder (or sent twice) does not sign in a second time.
 */
export async function takeTimeStep(db: Queryable, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(userSecondFactors)
    .set({ lastTimeStep: step })
    .where(
      and(
        eq(userSecondFactors.userId, userId),
        sql`(${userSecondFactors.lastTimeStep} is null or ${userSecondFactors.lastTimeStep} < ${step})`,
      ),
    )
    .returning({ userId: userSecondFactors.userId });
  return rows.length > 0;
}

/** A new pending secret replaces any earlier pending one; an enabled factor is never overwritten. */
export async function savePendingSecret(db: Queryable, userId: number, secretSealed: string): Promise<boolean> {
  const rows = await db
    .insert(userSecondFactors)
    .values({ userId, secretSealed })
    .onConflictDoUpdate({
      target: userSecondFactors.userId,
      set: { secretSealed, createdAt: sql`now()`, lastTimeStep: null },
      setWhere: isNull(userSecondFactors.enabledAt),
    })
    .returning({ userId: userSecondFactors.userId });
  return rows.length > 0;
}

export async function markSecondFactorEnabled(db: Queryable, userId: number): Promise<boolean> {
  const rows = await db
    .update(userSecondFactors)
    .set({ enabledAt: sql`now()` })
    .where(and(eq(userSecondFactors.userId, userId), isNull(userSecondFactors.enabledAt)))
    .returning({ userId: userSecondFactors.userId });
  return rows.length > 0;
}

/** Removes the second factor and the recovery codes; false when the user had none. */
export async function deleteSecondFactor(db: Queryable, userId: number): Promise<boolean> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const rows = await db
    .delete(userSecondFactors)
    .where(eq(userSecondFactors.userId, userId))
    .returning({ enabledAt: userSecondFactors.enabledAt });
  return rows.some((r) => r.enabledAt !== null);
}

export async function replaceRecoveryCodes(db: Queryable, userId: number, codeHashes: string[]): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses a recovery code: true once, whoever asks at the same moment. */
export async function useRecoveryCode(db: Queryable, userId: number, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: Queryable, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}
