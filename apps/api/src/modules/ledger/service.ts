import { eq, sql } from 'drizzle-orm';
import { ledgerEntries, LEDGER_KINDS } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/** Whose account: a Bet4Me client or a tips subscriber. */
export type AccountHolder = { clientId: number } | { subscriberId: number };

export interface LedgerEntry {
  holder: AccountHolder;
  /** Positive: credit (money received). Negative: debit (money spent from the balance). */
  amountCents: number;
  kind: (typeof LEDGER_KINDS)[number];
  paymentId?: number | null;
  subscriptionId?: number | null;
  bonusPaymentId?: number | null;
  note?: string | null;
  createdBy?: number | null;
}

/** Appends one entry; call it in the transaction that moves the money. */
export async function postLedgerEntry(db: Queryable, entry: LedgerEntry): Promise<void> {
  if (!Number.isSafeInteger(entry.amountCents) || entry.amountCents === 0) {
    throw new Error(`A ledger entry needs a non-zero whole number of cents, got ${entry.amountCents}`);
  }
  await db.insert(ledgerEntries).values({
    clientId: 'clientId' in entry.holder ? entry.holder.clientId : null,
    subscriberId: 'subscriberId' in entry.holder ? entry.holder.subscriberId : null,
    amountCents: entry.amountCents,
    kind: entry.kind,
    paymentId: entry.paymentId ?? null,
    subscriptionId: entry.subscriptionId ?? null,
    bonusPaymentId: entry.bonusPaymentId ?? null,
    note: entry.note ?? null,
    createdBy: entry.createdBy ?? null,
  });
}

/** The holder's account balance in cents: the sum of their ledger. */
export async function balanceCents(db: Queryable, holder: AccountHolder): Promise<number> {
  const where =
    'clientId' in holder ? eq(ledgerEntries.clientId, holder.clientId) : eq(ledgerEntries.subscriberId, holder.subscriberId);
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerEntries)
    .where(where);
  return Number(row?.total ?? 0);
}
