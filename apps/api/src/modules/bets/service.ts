import { sql, type SQL } from 'drizzle-orm';
import { betTexts, formatKes, successTexts, type Bet, type EnterProfit, type NewBet, type PageQuery, type SearchPageQuery } from '@betdesk/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import type { Queryable } from '../../db/client.ts';
import type { CsvTable } from '../../http/csv.ts';
import { fieldError, invalid, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { assignedUserOf, inScope, nameOrPhoneContains, pageOf, requireClientFacts, scopeOf, type Page } from '../clients/service.ts';
import { announce } from '../events/service.ts';
import { getSetting } from '../settings/service.ts';
import * as q from './queries.ts';

const cents = (kes: number): number => Math.round(kes * 100);

/** round(max(profit, 0) x rate): what the client owes on a win (BUSINESS-RULES.md). */
export function bonusCents(profitCents: number, ratePercent: number): number {
  return Math.round((Math.max(profitCents, 0) * ratePercent) / 100);
}

/** Opens a bet for an active client in the actor's scope, the stake within the client's maximum. */
export async function openBet(
  deps: AppDeps,
  actor: Actor,
  input: z.output<typeof NewBet>,
  requestId: string,
): Promise<{ info: string; bet_id: number }> {
  const betId = await deps.db.transaction(async (tx) => {
    const client = await requireClientFacts(tx, actor, input.client_id);
    if (!client.active) throw invalid({ client_id: [betTexts.clientNotActive] }, betTexts.clientNotActive);
    const stakeCents = cents(input.stake);
    if (client.maximumStakeCents !== null && stakeCents > client.maximumStakeCents) {
      throw fieldError('stake', betTexts.stakeAboveMaximum(formatKes(client.maximumStakeCents / 100)));
    }
    const id = await q.insertBet(tx, {
      clientId: client.id,
      stakeCents,
      description: input.description,
      openedBy: actor.userId,
    });
    await audit(tx, {
      actorUserId: actor.userId,
      action: 'bet.open',
      entity: 'bet',
      entityId: id,
      after: { client_id: client.id, stake_cents: stakeCents, description: input.description },
      requestId,
    });
    await announce(tx, { type: 'bet.opened', bet_id: id, client_id: client.id }, await assignedUserOf(tx, client.id));
    return id;
  });
  return { info: successTexts.betOpened, bet_id: betId };
}

/**
 * Enters an open bet's profit: closes it and, on a win, creates the client's pending bonus at the
 * configured rate. A loss may not exceed the stake; a closed bet's profit cannot be entered again.
 */
export async function enterProfit(
  deps: AppDeps,
  actor: Actor,
  input: z.output<typeof EnterProfit>,
  requestId: string,
): Promise<{ info: string; bonus: number }> {
  const bonus = await deps.db.transaction(async (tx) => {
    const bet = await q.lockBet(tx, input.bet_id);
    if (!bet) throw notFound('This bet was not found.');
    await requireClientFacts(tx, actor, bet.clientId);
    if (bet.status !== 'open') throw fieldError('profit', betTexts.profitAlreadyEntered);
    const profitCents = cents(input.profit);
    if (profitCents < -bet.stakeCents) throw fieldError('profit', betTexts.profitBelowLoss);
    const ratePercent = Number(await getSetting(tx, 'bonus_rate_percent'));
    const amountCents = bonusCents(profitCents, ratePercent);
    await q.closeBet(tx, bet.id, profitCents, actor.userId);
    const bonusId =
      amountCents > 0 ? await q.insertBonus(tx, { betId: bet.id, clientId: bet.clientId, amountCents, ratePercent }) : null;
    await audit(tx, {
      actorUserId: actor.userId,
      action: 'bet.profit',
      entity: 'bet',
      entityId: bet.id,
      before: { status: 'open', profit_cents: null },
      after: { status: 'closed', profit_cents: profitCents, bonus_id: bonusId, bonus_cents: amountCents, rate_percent: ratePercent },
      requestId,
    });
    await announce(tx, { type: 'bet.closed', bet_id: bet.id, client_id: bet.clientId }, await assignedUserOf(tx, bet.clientId));
    return amountCents;
  });
  return { info: successTexts.profitSaved, bonus: bonus / 100 };
}

function closedWhere(actor: Actor, search: string): SQL {
  const parts = [sql`b.status = 'closed'`, inScope(scopeOf(actor), sql`b.client_id`)];
  if (search) {
    // The client's name or phone, or what was bet on (bets_description_trgm_idx serves the ilike).
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(sql`(${nameOrPhoneContains(search, sql`c.name`, sql`c.phone`)} or b.description ilike ${pattern})`);
  }
  return sql.join(parts, sql` and `);
}

const openWhere = (actor: Actor): SQL => sql`b.status = 'open' and ${inScope(scopeOf(actor), sql`b.client_id`)}`;
const newestFirst = sql`b.opened_at desc, b.id desc`;

async function adminTotals(db: Queryable, actor: Actor) {
  if (actor.role !== 'admin') return {};
  const totals = await q.betTotals(db);
  return { total_open_bets: totals.open, total_closed_bets: totals.closed };
}

export async function openBets(deps: AppDeps, actor: Actor) {
  const [list, totals] = await Promise.all([
    q.findBets(deps.db, openWhere(actor), sql`b.opened_at, b.id`, null),
    adminTotals(deps.db, actor),
  ]);
  return { ...totals, bets: list };
}

export async function closedBets(deps: AppDeps, actor: Actor, query: PageQuery | SearchPageQuery) {
  const where = closedWhere(actor, 'search' in query ? query.search : '');
  const [list, totalRecords, totals] = await Promise.all([
    q.findBets(deps.db, where, sql`b.closed_at desc, b.id desc`, pageOf(query)),
    q.countBets(deps.db, where),
    adminTotals(deps.db, actor),
  ]);
  return { ...totals, total_records: totalRecords, bets: list };
}

/** How many open bets the actor can see (the dashboard's count). */
export function countOpenBets(db: Queryable, actor: Actor): Promise<number> {
  return q.countBets(db, openWhere(actor));
}

/** A client's bets (the client page's sub-list); the caller has checked the scope. */
export async function betsOfClient(db: Queryable, clientId: number, page: Page | null) {
  const where = sql`b.client_id = ${clientId}`;
  const [list, totalRecords] = await Promise.all([
    q.findBets(db, where, newestFirst, page),
    page ? q.countBets(db, where) : Promise.resolve(0),
  ]);
  return { list, totalRecords };
}

const betColumns: CsvTable<Bet>['columns'] = [
  { header: 'Bet', value: (b) => b.bet_id },
  { header: 'Client', value: (b) => b.name },
  { header: 'Phone', value: (b) => b.phone },
  { header: 'Description', value: (b) => b.description },
  { header: 'Stake (KES)', value: (b) => b.stake },
  { header: 'Profit (KES)', value: (b) => b.profit },
  { header: 'Bonus (KES)', value: (b) => b.bonus },
  { header: 'Opened on', value: (b) => b.opened_on },
  { header: 'Status', value: (b) => b.status },
];

export function betsCsv(
  deps: AppDeps,
  actor: Actor,
  filter: { status: 'open' } | { status: 'closed'; search: string } | { clientId: number },
): CsvTable<Bet> {
  const where =
    'clientId' in filter
      ? sql`b.client_id = ${filter.clientId}`
      : filter.status === 'open'
        ? openWhere(actor)
        : closedWhere(actor, filter.search);
  const order = 'status' in filter && filter.status === 'closed' ? sql`b.closed_at desc, b.id desc` : newestFirst;
  return {
    filename: 'clientId' in filter ? 'client-bets' : `${filter.status}-bets`,
    columns: betColumns,
    batch: (page) => q.findBets(deps.db, where, order, page),
  };
}
