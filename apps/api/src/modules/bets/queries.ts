import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Bet } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { bets, bonuses, clients } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { iso, kes, pagingSql, type Page } from '../clients/service.ts';

/** Bets with their client and bonus; `where` filters over b (bets) and c (clients). */
export async function findBets(db: Queryable, where: SQL, order: SQL, page: Page | null): Promise<Bet[]> {
  const found = await rows<Record<string, unknown>>(db, sql`
    select b.id, b.stake_cents, b.profit_cents, b.description, b.opened_at, b.status, bo.amount_cents as bonus_cents,
           b.client_id, c.name, c.phone, c.photo
      from ${bets} b join ${clients} c on c.id = b.client_id
      left join ${bonuses} bo on bo.bet_id = b.id
     where ${where} order by ${order} ${pagingSql(page)}`);
  return found.map((r) => ({
    bet_id: Number(r.id),
    stake: kes(r.stake_cents),
    profit: r.profit_cents == null ? null : kes(r.profit_cents),
    bonus: r.status === 'closed' ? kes(r.bonus_cents) : null,
    description: String(r.description),
    opened_on: iso(r.opened_at),
    status: r.status as Bet['status'],
    client_id: Number(r.client_id),
    name: String(r.name),
    phone: String(r.phone),
    photo: (r.photo as string | null) ?? null,
  }));
}

export async function countBets(db: Queryable, where: SQL): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`
    select count(*)::int as n from ${bets} b join ${clients} c on c.id = b.client_id where ${where}`);
  return Number(row?.n ?? 0);
}

/** Open and closed bets of every client (the admin's totals boxes). */
export async function betTotals(db: Queryable): Promise<{ open: number; closed: number }> {
  const [row] = await rows<{ open: number; closed: number }>(db, sql`
    select count(*) filter (where status = 'open')::int as open, count(*) filter (where status = 'closed')::int as closed
      from ${bets}`);
  return { open: Number(row?.open ?? 0), closed: Number(row?.closed ?? 0) };
}

export async function insertBet(
  tx: Queryable,
  bet: { clientId: number; stakeCents: number; description: string; openedBy: number },
): Promise<number> {
  const [row] = await tx.insert(bets).values(bet).returning({ id: bets.id });
  return row!.id;
}

/** The bet with a row lock, so its profit is entered once however many requests race. */
export async function lockBet(tx: Queryable, betId: number) {
  const [row] = await tx
    .select({ id: bets.id, clientId: bets.clientId, stakeCents: bets.stakeCents, status: bets.status })
    .from(bets)
    .where(eq(bets.id, betId))
    .for('update');
  return row;
}

export async function closeBet(tx: Queryable, betId: number, profitCents: number, closedBy: number): Promise<void> {
  await tx
    .update(bets)
    .set({ profitCents, status: 'closed', closedBy, closedAt: sql`now()` })
    .where(and(eq(bets.id, betId), eq(bets.status, 'open')));
}

export async function insertBonus(
  tx: Queryable,
  bonus: { betId: number; clientId: number; amountCents: number; ratePercent: number },
): Promise<number> {
  const [row] = await tx.insert(bonuses).values(bonus).returning({ id: bonuses.id });
  return row!.id;
}
