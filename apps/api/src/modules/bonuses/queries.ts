import { sql, type SQL } from 'drizzle-orm';
import type { Bonus, BonusPayment } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { bets, bonusAllocations, bonusPayments, bonuses, clients } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { iso, kes, pagingSql, type Page } from '../clients/service.ts';

/** Each bonus with what is still pending on it; columns: id, earned_at, pending, client_id, name, phone ... */
const bonusRows = sql`
  select bo.id, bo.bet_id, b.stake_cents, b.profit_cents, bo.amount_cents, bo.earned_at,
         bo.amount_cents - coalesce(al.paid, 0) as pending, bo.client_id, c.name, c.phone
    from ${bonuses} bo join ${bets} b on b.id = bo.bet_id join ${clients} c on c.id = bo.client_id
    left join lateral (select sum(a.amount_cents) as paid from ${bonusAllocations} a where a.bonus_id = bo.id) al on true`;

/** Bonuses with their bet and client; `where` and `order` read the columns of bonusRows as x. */
export async function findBonuses(db: Queryable, where: SQL, order: SQL, page: Page | null): Promise<Bonus[]> {
  const found = await rows<Record<string, unknown>>(db, sql`
    select * from (${bonusRows}) x where ${where} order by ${order} ${pagingSql(page)}`);
  return found.map((r) => ({
    bonus_id: Number(r.id),
    bet_id: Number(r.bet_id),
    stake: kes(r.stake_cents),
    profit: kes(r.profit_cents),
    bonus: kes(r.amount_cents),
    earned_on: iso(r.earned_at),
    pending_bonus: kes(r.pending),
    client_id: Number(r.client_id),
    name: String(r.name),
    phone: String(r.phone),
  }));
}

export async function countBonuses(db: Queryable, where: SQL): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`select count(*)::int as n from (${bonusRows}) x where ${where}`);
  return Number(row?.n ?? 0);
}

/** Bonus payments with their client; `where` reads p (payments) and c (clients). */
export async function findBonusPayments(db: Queryable, where: SQL, page: Page | null): Promise<BonusPayment[]> {
  const found = await rows<Record<string, unknown>>(db, sql`
    select p.id, p.amount_cents, p.paid_at, p.description, p.client_id, c.name, c.phone
      from ${bonusPayments} p join ${clients} c on c.id = p.client_id
     where ${where} order by p.paid_at desc, p.id desc ${pagingSql(page)}`);
  return found.map((r) => ({
    id: Number(r.id),
    amount: kes(r.amount_cents),
    paid_on: iso(r.paid_at),
    description: String(r.description),
    client_id: Number(r.client_id),
    name: String(r.name),
    phone: String(r.phone),
  }));
}

export async function countBonusPayments(db: Queryable, where: SQL): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`
    select count(*)::int as n from ${bonusPayments} p join ${clients} c on c.id = p.client_id where ${where}`);
  return Number(row?.n ?? 0);
}

/** Every client's bonuses: earned, paid and still pending, in cents (the admin's totals boxes). */
export async function bonusTotals(db: Queryable): Promise<{ totalCents: number; paidCents: number }> {
  const [row] = await rows<{ total: string; paid: string }>(db, sql`
    select (select coalesce(sum(amount_cents), 0) from ${bonuses}) as total,
           (select coalesce(sum(amount_cents), 0) from ${bonusPayments}) as paid`);
  return { totalCents: Number(row?.total ?? 0), paidCents: Number(row?.paid ?? 0) };
}
