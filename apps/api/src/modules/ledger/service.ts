import type { LEDGER_KINDS } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import type { FixedStatement } from '../../db/fixed-statements.ts';
import * as q from './queries.ts';

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

/** The entry's row, once its amount is known to be a non-zero whole number of cents. */
function entryRow(entry: LedgerEntry): q.LinkedLedgerEntry {
  if (!Number.isSafeInteger(entry.amountCents) || entry.amountCents === 0) {
    throw new Error(`A ledger entry needs a non-zero whole number of cents, got ${entry.amountCents}`);
  }
  return {
    clientId: 'clientId' in entry.holder ? entry.holder.clientId : null,
    subscriberId: 'subscriberId' in entry.holder ? entry.holder.subscriberId : null,
    amountCents: entry.amountCents,
    kind: entry.kind,
    paymentId: entry.paymentId ?? null,
    subscriptionId: entry.subscriptionId ?? null,
    bonusPaymentId: entry.bonusPaymentId ?? null,
    note: entry.note ?? null,
    createdBy: entry.createdBy ?? null,
  };
}

/** Appends one entry; call it in the transaction that moves the money. */
export async function postLedgerEntry(db: Queryable, entry: LedgerEntry): Promise<void> {
  await q.insertLedgerEntry(db, entryRow(entry));
}

/**
 * Writes a row (`written`: a fixed insert returning `id`) and the entry that belongs to it in one
 * statement: the entry's `link` (its payment or subscription) is the new row's id. Nothing is posted
 * when the insert wrote nothing. Answers the rows the insert returned (the database's column names).
 */
export function postWithLedgerEntry<T extends { id: unknown }>(
  db: Queryable,
  written: FixedStatement,
  link: 'paymentId' | 'subscriptionId',
  entry: LedgerEntry,
): Promise<T[]> {
  return q.insertWithLedgerEntry<T>(db, written, link, entryRow(entry));
}

/** The holder's account balance in cents: the sum of their ledger. */
export function balanceCents(db: Queryable, holder: AccountHolder): Promise<number> {
  return q.ledgerSum(db, holder);
}
