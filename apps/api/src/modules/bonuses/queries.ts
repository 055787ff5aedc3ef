import { sql, type SQL } from 'drizzle-orm';
import { centsToKes, type Bonus, type BonusPayment } from '@betdesk/contract';
import { iso, rows } from '../../db/rows.ts';
import { cappedCount, exactCount, pageRows, type ListCount, type Page } from '../../db/list.ts';
import { summed, type DayRange } from '../../db/summaries.ts';
import { bets, bonusPayments, bonuses, clients } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import type { ScopedWhere } from '../../db/scope.ts';
import { BONUS_KEYS, isUnpaidBonus, unpaidBonusCents } from '../money/service.ts';

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

export function countBonuses(db: Queryable, where: ScopedWhere): Promise<ListCount> {
  return cappedCount(db, sql`from ${bonuses} bo where ${where}`);
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

export function countBonusPayments(db: Queryable, where: ScopedWhere): Promise<ListCount> {
  return cappedCount(db, sql`from ${bonusPayments} p where ${where}`);
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
