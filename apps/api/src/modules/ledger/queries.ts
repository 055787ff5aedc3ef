import { eq, sql, type SQL } from 'drizzle-orm';
import { ledgerEntries } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { asPlaceholders, fixedRows, type FixedStatement } from '../../db/fixed-statements.ts';

/** A ledger entry that belongs to the row another insert writes (its payment or its subscription). */
export type LinkedLedgerEntry = Omit<typeof ledgerEntries.$inferInsert, 'id' | 'createdAt'>;

/**
 * Writes a row and its ledger entry in one statement (one round trip): `written` is an insert
 * returning the new row's `id` (and what else the caller needs back), a fixed statement whose text
 * is built once per shape, as this one's (db/fixed-statements.ts); the entry takes that id as its
 * `link` and is written once per row returned, so an insert that wrote nothing (ON CONFLICT DO
 * NOTHING) posts nothing. Answers the rows `written` returned, with the database's column names.
 */
export function insertWithLedgerEntry<T extends { id: unknown }>(
  db: Queryable,
  written: FixedStatement,
  link: 'paymentId' | 'subscriptionId',
  entry: LinkedLedgerEntry,
): Promise<T[]> {
  const e = asPlaceholders(entry, 'entry_');
  const linked = (column: 'paymentId' | 'subscriptionId'): SQL => (link === column ? sql`written.id` : sql`${e.row[column]}::bigint`);
  return fixedRows<T>(db, {
    shape: `ledger entry of ${link} (${e.shape}) with ${written.shape}`,
    values: { ...written.values, ...e.values },
    build: () => sql`with written as (${written.build().getSQL()}), entry as (
          insert into ${ledgerEntries} (client_id, subscriber_id, amount_cents, kind, payment_id, subscription_id, bonus_payment_id, note, created_by)
          select ${e.row.clientId}::integer, ${e.row.subscriberId}::integer, ${e.row.amountCents}::bigint, ${e.row.kind}::text,
                 ${linked('paymentId')}, ${linked('subscriptionId')}, ${e.row.bonusPaymentId}::bigint, ${e.row.note}::text,
                 ${e.row.createdBy}::integer
            from written
        )
        select * from written`,
  });
}

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
