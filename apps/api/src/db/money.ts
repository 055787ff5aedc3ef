import { sql, type SQL } from 'drizzle-orm';
import { bonuses, ledgerEntries, mpesaPayments } from './schema/index.ts';

/**
 * Every money figure the spec shows, defined once (docs/decisions/027-money-figures-defined-once.md).
 *
 * A figure has a row definition (SQL over the base rows: what the services, lists and exports read)
 * and, where the day summaries keep it, its summary keys (what the triggers add up). Where both
 * exist, the row definition is a SQL function of migration 0029 that the triggers' summary
 * functions call too, so the two cannot drift; test/money/figures.test.ts proves them equal after
 * a random mix of writes. The functions are inlined by PostgreSQL, so they cost nothing and still
 * match the partial indexes written on the expressions they stand for.
 *
 * `alias` is the table alias of the query at hand ('bo' for bonuses, 'p' for payments).
 */

const col = (alias: string, column: string): SQL => sql.raw(`${alias}.${column}`);

// ---- Bonuses: pending (unpaid), paid and total. Source: the bonus rows and their allocations. ----

/** Total bonus of one bonus row: what the client owes for the profit, in cents. */
export const totalBonusCents = (alias: string): SQL => col(alias, 'amount_cents');

/** Paid bonus of one bonus row: the sum of the bonus payments' allocations to it (kept in paid_cents). */
export const paidBonusCents = (alias: string): SQL => col(alias, 'paid_cents');

/** Pending (unpaid) bonus of one bonus row: total less paid. */
export const unpaidBonusCents = (alias: string): SQL =>
  sql`bonus_unpaid_cents(${col(alias, 'amount_cents')}, ${col(alias, 'paid_cents')})`;

/** A bonus is pending while something is owed on it (the bonuses_unpaid_* partial indexes read this). */
export const isUnpaidBonus = (alias: string): SQL =>
  sql`bonus_is_unpaid(${col(alias, 'amount_cents')}, ${col(alias, 'paid_cents')})`;

/** A client's bonus figures in cents, aggregated off bonuses_client_idx: one row (n, total, paid, unpaid). */
export const clientBonusFigures = (clientId: SQL): SQL => sql`
  select count(*) as n, coalesce(sum(${totalBonusCents('bo')}), 0) as total,
         coalesce(sum(${paidBonusCents('bo')}), 0) as paid, coalesce(sum(${unpaidBonusCents('bo')}), 0) as unpaid
    from ${bonuses} bo where bo.client_id = ${clientId}`;

/** Summary keys of the bonus figures over every client (decision 015), by the day each bonus was earned. */
export const BONUS_KEYS = { total: 'bonus:earned:', paid: 'bonus:paid:', unpaid: 'bonus:unpaid:' } as const;

// ---- Account balance. Source: the ledger. ----

/** A client's account balance in cents: the sum of their ledger entries (credit not yet spent). */
export const clientAccountBalance = (clientId: SQL): SQL =>
  sql`select coalesce(sum(l.amount_cents), 0) as balance from ${ledgerEntries} l where l.client_id = ${clientId}`;

// ---- Income, unclaimed and deposits. Source: the M-Pesa payments. ----

/** A payment counts as money received (income, deposits) once claimed or waiting unclaimed; rejected payloads do not. */
export const isIncome = (alias: string): SQL => sql`payment_is_income(${col(alias, 'status')})`;

/** The business day a payment counts on (Africa/Nairobi): when M-Pesa says it was made, else when it arrived. */
export const paymentDay = (alias: string): SQL => sql`payment_day(${col(alias, 'trans_time')}, ${col(alias, 'received_at')})`;

/** Summary keys: total income and income today (claimed and unclaimed payments), the unclaimed total, deposits. */
export const INCOME_KEYS = ['payment:claimed:', 'payment:unclaimed:'] as const;
export const UNCLAIMED_KEYS = ['payment:unclaimed:'] as const;
/** Deposits are the money received: the same payments as income, read over a day range. */
export const DEPOSIT_KEYS = INCOME_KEYS;

/** The same figures from the rows, for the checks that compare them (tests, money checks). */
export const incomeFromRows = (range: SQL = sql`true`): SQL =>
  sql`select coalesce(sum(p.amount_cents), 0) as cents, count(*) as n from ${mpesaPayments} p where ${isIncome('p')} and ${range}`;
export const unclaimedFromRows = (range: SQL = sql`true`): SQL =>
  sql`select coalesce(sum(p.amount_cents), 0) as cents, count(*) as n from ${mpesaPayments} p where p.status = 'unclaimed' and ${range}`;
