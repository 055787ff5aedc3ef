import type { SQL } from 'drizzle-orm';
import {
  betTexts,
  centsToKes,
  formatCents,
  kesToCents,
  successTexts,
  type Bet,
  type EnterProfit,
  type NewBet,
  type SortOf,
  refusalTexts,
} from '@betdesk/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import type { Queryable } from '../../db/client.ts';
import { csvDateTime, csvPhone, queryBatches, type CsvTable } from '../../http/csv.ts';
import { dayRangeOf, pageOf, rowsAndCount, countCapOf, type ListRequest, type Page } from '../../db/list.ts';
import type { DayRange } from '../../db/summaries.ts';
import { conflict, fieldError, invalid, notFound } from '../../http/errors.ts';
import { saleBlockOf } from '../../db/sale-blocks.ts';
import { audit, byStaff } from '../audit/service.ts';
import { clientRowsWhere, scopeOf, type ScopedWhere } from '../../db/scope.ts';
import { assignedUserOf, requireClientFacts } from '../clients/service.ts';
import { announce } from '../events/service.ts';
import { getSetting } from '../settings/service.ts';
import * as q from './queries.ts';


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
    // No new bet for a self-excluded or under-18 client; their open bets run to their result (decision 059).
    const block = client.phone ? await saleBlockOf(tx, client.phone) : null;
    if (block) throw conflict(block === 'under_18' ? refusalTexts.betBlockedUnder18 : refusalTexts.betBlockedExcluded, `sale-blocked-${block}`);
    const stakeCents = kesToCents(input.stake);
    if (client.maximumStakeCents !== null && stakeCents > client.maximumStakeCents) {
      throw fieldError('stake', betTexts.stakeAboveMaximum(formatCents(client.maximumStakeCents)));
    }
    const id = await q.insertBet(tx, {
      clientId: client.id,
      stakeCents,
      description: input.description,
      openedBy: actor.userId,
    });
    await audit(tx, 'bet.open', id, byStaff(actor, requestId), { after: { client_id: client.id, stake_cents: stakeCents, description: input.description } });
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
    if (!bet) throw notFound(refusalTexts.betNotFound);
    await requireClientFacts(tx, actor, bet.clientId);
    if (bet.status !== 'open') throw fieldError('profit', betTexts.profitAlreadyEntered);
    const profitCents = kesToCents(input.profit);
    if (profitCents < -bet.stakeCents) throw fieldError('profit', betTexts.profitBelowLoss);
    const ratePercent = Number(await getSetting(tx, 'bonus_rate_percent'));
    const amountCents = bonusCents(profitCents, ratePercent);
    await q.closeBet(tx, bet.id, profitCents, actor.userId);
    const bonusId =
      amountCents > 0 ? await q.insertBonus(tx, { betId: bet.id, clientId: bet.clientId, amountCents, ratePercent }) : null;
    await audit(tx, 'bet.profit', bet.id, byStaff(actor, requestId), {
      before: { status: 'open', profit_cents: null },
      after: { status: 'closed', profit_cents: profitCents, bonus_id: bonusId, bonus_cents: amountCents, rate_percent: ratePercent },
    });
    await announce(tx, { type: 'bet.closed', bet_id: bet.id, client_id: bet.clientId }, await assignedUserOf(tx, bet.clientId));
    return amountCents;
  });
  return { info: successTexts.profitSaved, bonus: centsToKes(bonus) };
}

type OpenBetQuery = ListRequest<SortOf<'openBets'>>;
type ClosedBetQuery = ListRequest<SortOf<'closedBets'>>;
type BetFilter = Omit<ClosedBetQuery, 'page' | 'perPage'>;

/** The bets of a list: the scope's, of one status, closed ones within the days, the page's search. */
const openWhere = (actor: Actor, f: Omit<OpenBetQuery, 'page' | 'perPage'> = {}, narrow = false) =>
  q.betsListWhere(scopeOf(actor), 'open', f, narrow);

const closedWhere = (actor: Actor, f: BetFilter, narrow = false) => q.betsListWhere(scopeOf(actor), 'closed', f, narrow);

async function adminTotals(db: Queryable, actor: Actor, closedIn: DayRange = {}) {
  if (actor.role !== 'admin') return {};
  const totals = await q.betTotals(db, closedIn);
  return { total_open_bets: totals.open, total_closed_bets: totals.closed };
}

/**
 * How many rows a bets list holds, up to the cap. An admin's unsearched list reads the day summaries
 * (exact); a staff member's is the owner's part of the status's index. A search is counted in two
 * disjoint parts (bets of the matching clients, client by client; then bets found by their text
 * alone): one OR over both made PostgreSQL gather every bet of every matching client before the cap
 * could stop it (a common surname at reference scale, 142 ms), and for a staff member intersect every
 * bet of the owner with every bet naming "Gor" (decision 045).
 */
function countOf(deps: AppDeps, actor: Actor, status: 'open' | 'closed', query: BetFilter & { page: number; perPage: number }, where: ScopedWhere, summary: () => Promise<number>) {
  const scope = scopeOf(actor);
  const text = query.search?.trim();
  if (text) return q.countBetsSearched(deps.db, scope, q.betsOfStatusWhere(scope, status, query), text, countCapOf(query));
  if (actor.role !== 'admin') return q.countBets(deps.db, where);
  return summary().then((n) => ({ total_records: n }));
}

/**
 * Whether an admin's search is narrow (q.isNarrowSearch). A staff member's search always reads the
 * matching clients as an array (q.betsListWhere), so it skips the probe: at reference scale its text
 * half intersected every bet of the owner with every bet naming "Gor" (decision 045).
 */
function narrowForAdmin(deps: AppDeps, actor: Actor, status: 'open' | 'closed', search: string | undefined): Promise<boolean> {
  return actor.role === 'admin' ? q.isNarrowSearch(deps.db, 'all', status, search) : Promise.resolve(false);
}

export async function openBets(deps: AppDeps, actor: Actor, query: OpenBetQuery) {
  const where = openWhere(actor, query, await narrowForAdmin(deps, actor, 'open', query.search));
  const order = q.openBetsOrder(query);
  const [list, counted, totals] = await Promise.all([
    q.findBets(deps.db, where, order, pageOf(query)),
    countOf(deps, actor, 'open', query, where, () => q.betTotals(deps.db).then((t) => t.open)),
    adminTotals(deps.db, actor),
  ]);
  return { ...totals, ...counted, bets: list };
}

export async function closedBets(deps: AppDeps, actor: Actor, query: ClosedBetQuery) {
  const where = closedWhere(actor, query, await narrowForAdmin(deps, actor, 'closed', query.search));
  const order = q.closedBetsOrder(query);
  const range = dayRangeOf(query);
  const [list, counted, totals] = await Promise.all([
    q.findBets(deps.db, where, order, pageOf(query)),
    countOf(deps, actor, 'closed', query, where, () => q.betTotals(deps.db, range).then((t) => t.closed)),
    adminTotals(deps.db, actor, range),
  ]);
  return { ...totals, ...counted, bets: list };
}

/** How many open bets the actor can see (the dashboard's count): the summaries for an admin. */
export async function countOpenBets(db: Queryable, actor: Actor): Promise<number> {
  if (actor.role === 'admin') return (await q.betTotals(db)).open;
  return q.countBetsExactly(db, openWhere(actor));
}

/** A client's bets (the client page's sub-list); the caller has checked the scope. */
/** A client's bets, newest first; only those of `status` when given (their page's open bets, with Enter Profit). */
export async function betsOfClient(db: Queryable, clientId: number, page: Page | null, status?: 'open' | 'closed') {
  const where = status ? clientRowsWhere('b', clientId, q.betStatusIs(status)) : clientRowsWhere('b', clientId);
  return rowsAndCount(page, q.findBets(db, where, q.newestFirst, page), () => q.countBetsExactly(db, where));
}

const betColumns: CsvTable<Bet>['columns'] = [
  { header: 'Name', value: (b) => b.name },
  { header: 'Phone', value: (b) => csvPhone(b.phone) },
  { header: 'Stake (KES)', value: (b) => b.stake },
  { header: 'Bet Description', value: (b) => b.description },
  { header: 'Profit (KES)', value: (b) => b.profit },
  { header: 'Bonus (KES)', value: (b) => b.bonus },
  { header: 'Opened on', value: (b) => csvDateTime(b.opened_on) },
  { header: 'Closed on', value: (b) => csvDateTime(b.closed_on) },
  { header: 'Status', value: (b) => (b.status === 'open' ? 'Open' : 'Closed') },
];

export function betsCsv(
  deps: AppDeps,
  actor: Actor,
  filter:
    | ({ status: 'open' } & Omit<OpenBetQuery, 'page' | 'perPage'>)
    | ({ status: 'closed' } & Omit<ClosedBetQuery, 'page' | 'perPage'>)
    | { clientId: number },
): CsvTable<Bet> {
  let where: ScopedWhere;
  let order: SQL;
  if ('clientId' in filter) {
    where = clientRowsWhere('b', filter.clientId);
    order = q.newestFirst;
  } else if (filter.status === 'open') {
    where = openWhere(actor, filter);
    order = q.openBetsOrder(filter);
  } else {
    where = closedWhere(actor, filter);
    order = q.closedBetsOrder(filter);
  }
  return {
    filename: 'clientId' in filter ? 'client-bets' : `${filter.status}-bets`,
    columns: betColumns,
    rows: queryBatches(deps.database, q.betsExportQuery(where, order), q.toBet),
  };
}
