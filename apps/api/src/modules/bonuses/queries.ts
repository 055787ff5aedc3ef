import { sql, type SQL } from 'drizzle-orm';
import { centsToKes, type Bonus, type BonusPayment, type SortOf } from '@betdesk/contract';
import { iso, rows } from '../../db/rows.ts';
import { cappedCount, dayRangeOf, exactCount, inDays, nameOrPhoneContains, orderSql, pageRows, type ListCount, type ListRequest, type Page } from '../../db/list.ts';
import { summed, type DayRange } from '../../db/summaries.ts';
import { bets, bonusAllocations, bonusPayments, bonuses, clients } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { scopedWhere, type Scope, type ScopedWhere } from '../../db/scope.ts';
import { BONUS_KEYS, isUnpaidBonus, unpaidBonusCents } from '../../db/money.ts';

const bonusColumns = sql`
  bo.id, bo.bet_id, b.stake_cents, b.profit_cents, bo.amount_cents, bo.earned_at,
  ${unpaidBonusCents('bo')} as pending, bo.client_id, c.name, c.phone`;

function toBonus(r: Record<string, unknown>): Bonus {
  return {
    bonus_id: Number(r.id),
    bet_id: Number(r.bet_id),
    stake: centsToKes(r.stake_cents),
    profit: centsToKes(r.profit_cents),
    bonus: centsToKes(r.amount_cents),
    earned_on: iso(r.earned_at),
    pending_bonus: centsToKes(r.pending),
    client_id: Number(r.client_id),
    name: String(r.name),
    phone: String(r.phone),
  };
}

/**
 * One page of bonuses with their bet and client: `where` and `order` read bo (bonuses), so the page
 * is picked off the sort index before anything is joined.
 */
export async function findBonuses(db: Queryable, where: ScopedWhere, order: SQL, page: Page | null): Promise<Bonus[]> {
  const found = await rows<Record<string, unknown>>(db, sql`
    select ${bonusColumns}
      from (${pageRows(bonuses, 'bo', where, order, page)}) bo
      join ${bets} b on b.id = bo.bet_id join ${clients} c on c.id = bo.client_id
     order by ${order}`);
  return found.map(toBonus);
}

/** Every bonus of `where` in `order`, for the CSV export's cursor. */
export function bonusesExportQuery(where: ScopedWhere, order: SQL): SQL {
  return sql`select ${bonusColumns}
      from ${bonuses} bo join ${bets} b on b.id = bo.bet_id join ${clients} c on c.id = bo.client_id
     where ${where} order by ${order}`;
}

export function countBonuses(db: Queryable, where: ScopedWhere, cap: number): Promise<ListCount> {
  return cappedCount(db, sql`from ${bonuses} bo where ${where}`, cap);
}

export function countBonusesExactly(db: Queryable, where: ScopedWhere): Promise<number> {
  return exactCount(db, sql`from ${bonuses} bo where ${where}`);
}

/**
 * A staff member's unpaid bonuses (the dashboard's count), exact: the owner's range of
 * bonuses_owner_unpaid_earned_idx, read off the index alone.
 */
export function countUnpaidBonusesOf(db: Queryable, where: ScopedWhere): Promise<number> {
  return exactCount(db, sql`from ${bonuses} bo where ${where} and ${isUnpaidBonus('bo')}`);
}

const paymentColumns = sql`p.id, p.amount_cents, p.paid_at, p.description, p.client_id, c.name, c.phone`;

function toBonusPayment(r: Record<string, unknown>): BonusPayment {
  return {
    id: Number(r.id),
    amount: centsToKes(r.amount_cents),
    paid_on: iso(r.paid_at),
    description: String(r.description),
    client_id: Number(r.client_id),
    name: String(r.name),
    phone: String(r.phone),
  };
}

/** One page of bonus payments with their client; `where` and `order` read p (bonus payments). */
export async function findBonusPayments(db: Queryable, where: ScopedWhere, order: SQL, page: Page | null): Promise<BonusPayment[]> {
  const found = await rows<Record<string, unknown>>(db, sql`
    select ${paymentColumns}
      from (${pageRows(bonusPayments, 'p', where, order, page)}) p
      join ${clients} c on c.id = p.client_id
     order by ${order}`);
  return found.map(toBonusPayment);
}

export function bonusPaymentsExportQuery(where: ScopedWhere, order: SQL): SQL {
  return sql`select ${paymentColumns} from ${bonusPayments} p join ${clients} c on c.id = p.client_id
     where ${where} order by ${order}`;
}

export { toBonus, toBonusPayment };

export function countBonusPayments(db: Queryable, where: ScopedWhere, cap: number): Promise<ListCount> {
  return cappedCount(db, sql`from ${bonusPayments} p where ${where}`, cap);
}

export function countBonusPaymentsExactly(db: Queryable, where: ScopedWhere): Promise<number> {
  return exactCount(db, sql`from ${bonusPayments} p where ${where}`);
}

/**
 * Every client's bonuses, in cents, from the day summaries: earned, paid towards them and still
 * unpaid (the admin's totals boxes), over the bonuses earned in `earnedIn`, and how many there are.
 */
export async function bonusTotals(db: Queryable, earnedIn: DayRange = {}) {
  const [earned, paid, unpaid] = await Promise.all([
    summed(db, BONUS_KEYS.total, earnedIn),
    summed(db, BONUS_KEYS.paid, earnedIn),
    summed(db, BONUS_KEYS.unpaid, earnedIn),
  ]);
  return { totalCents: earned.amount_cents, paidCents: paid.amount_cents, pendingCents: unpaid.amount_cents, bonuses: earned.n, unpaid: unpaid.n };
}

/** Bonus payments made in `paidIn`: how many and how much. */
export function bonusPaymentTotals(db: Queryable, paidIn: DayRange = {}) {
  return summed(db, 'bonus_payment', paidIn);
}

// ---- Paying bonuses --------------------------------------------------------------------------

/** Pending (unpaid) bonus of a client in cents. */
export async function pendingBonusOfClient(db: Queryable, clientId: number): Promise<number> {
  const [row] = await rows<{ pending: string }>(db, sql`
    select coalesce(sum(${unpaidBonusCents('b')}), 0) as pending
      from ${bonuses} b
     where b.client_id = ${clientId}`);
  return Number(row?.pending ?? 0);
}

/** A client's bonuses oldest first with what is still unpaid on each, locked until the payment is written. */
export function lockBonusesOldestFirst(tx: Queryable, clientId: number): Promise<{ id: number; remaining: string }[]> {
  return rows<{ id: number; remaining: string }>(tx, sql`
    select b.id, ${unpaidBonusCents('b')} as remaining
      from ${bonuses} b
     where b.client_id = ${clientId}
     order by b.earned_at, b.id
       for update of b`);
}

/** Writes a bonus payment (negative for a reversal) and returns its id. */
export async function insertBonusPayment(tx: Queryable, payment: typeof bonusPayments.$inferInsert): Promise<number> {
  const [written] = await tx.insert(bonusPayments).values(payment).returning({ id: bonusPayments.id });
  return written!.id;
}

/** What a bonus payment pays towards each bonus. */
export async function insertAllocations(
  tx: Queryable,
  bonusPaymentId: number,
  allocations: { bonusId: number; amountCents: number }[],
): Promise<void> {
  await tx.insert(bonusAllocations).values(allocations.map((a) => ({ ...a, bonusPaymentId })));
}

/** What an M-Pesa payment still pays towards each bonus (net of earlier reversals), per bonus. */
export async function bonusesStillPaidByPayment(
  tx: Queryable,
  paymentId: number,
): Promise<{ clientId: number; bonusId: number; amountCents: number }[]> {
  const paid = await rows<{ client_id: number; bonus_id: number; amount: string }>(tx, sql`
    select p.client_id, a.bonus_id, sum(a.amount_cents) as amount
      from ${bonusPayments} p
      join ${bonusAllocations} a on a.bonus_payment_id = p.id
     where p.payment_id = ${paymentId}
     group by p.client_id, a.bonus_id
    having sum(a.amount_cents) > 0`);
  return paid.map((p) => ({ clientId: Number(p.client_id), bonusId: Number(p.bonus_id), amountCents: Number(p.amount) }));
}

// ---- The Bonus History lists' filters and orders ---------------------------------------------

type BonusFilter = Omit<ListRequest<SortOf<'bonuses'>>, 'page' | 'perPage'>;
type PaymentFilter = Omit<ListRequest<SortOf<'paidBonuses'>>, 'page' | 'perPage'>;

const bonusSorts: Record<SortOf<'bonuses'>, SQL> = { earned_on: sql`bo.earned_at`, bonus: sql`bo.amount_cents` };
const paymentSorts: Record<SortOf<'paidBonuses'>, SQL> = { paid_on: sql`p.paid_at`, amount: sql`p.amount_cents` };
export const newestBonusesFirst = sql`bo.earned_at desc, bo.id desc`;
export const newestPaymentsFirst = sql`p.paid_at desc, p.id desc`;

export const bonusesOrder = (query: BonusFilter): SQL => orderSql('bonuses', bonusSorts, sql`bo.id`, query);
export const bonusPaymentsOrder = (query: PaymentFilter): SQL => orderSql('paidBonuses', paymentSorts, sql`p.id`, query);

/** The client's name or phone contains the search, among the scope's own clients (clients_owner_*). */
function clientSearchSql(scope: Scope, column: SQL, search: string | undefined): SQL {
  const text = search?.trim();
  if (!text) return sql`true`;
  return sql`${column} in (select c.id from ${clients} c where ${scopedWhere(scope, 'c', nameOrPhoneContains(text, sql`c.name`, sql`c.phone`))})`;
}

export function bonusesListWhere(scope: Scope, f: BonusFilter & { unpaidOnly?: boolean }): ScopedWhere {
  const parts = [clientSearchSql(scope, sql`bo.client_id`, f.search), inDays(sql`bo.earned_at`, dayRangeOf(f))];
  // bonuses_unpaid_*_idx and bonuses_owner_unpaid_earned_idx are partial on exactly this predicate
  // (bonus_is_unpaid() is inlined to `paid_cents < amount_cents`).
  if (f.unpaidOnly) parts.push(isUnpaidBonus('bo'));
  return scopedWhere(scope, 'bo', ...parts);
}

export function bonusPaymentsListWhere(scope: Scope, f: PaymentFilter): ScopedWhere {
  return scopedWhere(scope, 'p', clientSearchSql(scope, sql`p.client_id`, f.search), inDays(sql`p.paid_at`, dayRangeOf(f)));
}
