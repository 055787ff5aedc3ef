import { eq, sql } from 'drizzle-orm';
import { ledgerEntries } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

export async function insertLedgerEntry(db: Queryable, entry: typeof ledgerEntries.$inferInsert): Promise<void> {
  await db.insert(ledgerEntries).values(entry);
}

/** The sum of a client's (or a subscriber's) ledger entries in cents. */
export async function ledgerSum(db: Queryable, holder: { clientId: number } | { subscriberId: number }): Promise<number> {
  const where =
    'clientId' in holder ? eq(ledgerEntries.clientId, holder.clientId) : eq(ledgerEntries.subscriberId, holder.subscriberId);
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerEntries)
    .where(where);
  return Number(row?.total ?? 0);
}
