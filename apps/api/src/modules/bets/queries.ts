import { and, eq, sql, type SQL } from 'drizzle-orm';
import { centsToKes, type Bet, type SortDirection, type SortOf } from '@betdesk/contract';
import { iso, rows } from '../../db/rows.ts';
import { cappedCount, cappedCountOf, containing, dayRangeOf, exactCount, inDays, nameOrPhoneContains, orderSql, pageRows, type ListCount, type Page } from '../../db/list.ts';
import { summed, type DayRange } from '../../db/summaries.ts';
import { bets, bonuses, clients } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { scopedWhere, type Scope, type ScopedWhere } from '../../db/scope.ts';

const betColumns = sql`
  b.id, b.stake_cents, b.profit_cents, b.description, b.opened_at, b.closed_at, b.status, bo.amount_cents as bonus_cents,
  b.client_id, c.name, c.phone, c.photo`;

function toBet(r: Record<string, unknown>): Bet {
  return {
    bet_id: Number(r.id),
    stake: centsToKes(r.stake_cents),
    profit: r.profit_cents == null ? null : centsToKes(r.profit_cents),
    bonus: r.status === 'closed' ? centsToKes(r.bonus_cents) : null,
    description: String(r.description),
    opened_on: iso(r.opened_at),
    closed_on: r.closed_at == null ? null : iso(r.closed_at),
    status: r.status as Bet['status'],
    client_id: Number(r.client_id),
    name: String(r.name),
    phone: String(r.phone),
    photo: (r.photo as string | null) ?? null,
  };
}

/**
 * One page of bets with their client and bonus: the page is picked off the sort index first
 * (`where` and `order` over b, the bets), then only its rows are joined.
 */
export async function findBets(db: Queryable, where: ScopedWhere, order: SQL, page: Page | null): Promise<Bet[]> {
  const found = await rows<Record<string, unknown>>(db, sql`
    select ${betColumns}
      from (${pageRows(bets, 'b', where, order, page)}) b
      join ${clients} c on c.id = b.client_id
      left join ${bonuses} bo on bo.bet_id = b.id
     order by ${order}`);
  return found.map(toBet);
}

/** Every bet of `where` in `order`, for the CSV export's cursor: a flat join that streams off the sort index. */
export function betsExportQuery(where: ScopedWhere, order: SQL): SQL {
  return sql`
    select ${betColumns}
      from ${bets} b join ${clients} c on c.id = b.client_id
      left join ${bonuses} bo on bo.bet_id = b.id
     where ${where} order by ${order}`;
}

export { toBet };

/** Bets of `where` (over b), counted up to the cap. */
export function countBets(db: Queryable, where: ScopedWhere): Promise<ListCount> {
  return cappedCount(db, sql`from ${bets} b where ${where}`);
}

/**
 * The bets of `where` (over b) that a search matches, counted up to `cap` in two parts that never
 * overlap: the bets of the scope's matching clients, read client by client, then the bets whose text
 * matches and whose client does not. The limit inside the lateral keeps it a loop over the clients
 * (bets_closed_client_idx, off the index alone) that the cap stops: joined, PostgreSQL hashed the
 * matching clients and read every closed bet to find theirs. A staff member's text half is a range
 * of bets_owner_description_trgm_idx: the owner and the trigrams meet inside the index (decision 045).
 */
export function countBetsSearched(db: Queryable, scope: Scope, where: ScopedWhere, text: string, cap: number): Promise<ListCount> {
  const { ids: clientIds, test: clientMatches } = matchingClients(scope, text);
  return cappedCountOf(
    db,
    sql`select 1 from (${clientIds}) m cross join lateral (select 1 from ${bets} b where b.client_id = m.id and ${where} limit ${cap + 1}) x
        union all
        select 1 from ${bets} b
         where ${where} and ${describes(text)}
           and not exists (select 1 from ${clients} c where c.id = b.client_id and ${scopedWhere(scope, 'c', clientMatches)})`,
    cap,
  );
}

/** Bets of `where` (over b), counted exactly: for small sets (one client's bets). */
export function countBetsExactly(db: Queryable, where: ScopedWhere): Promise<number> {
  return exactCount(db, sql`from ${bets} b where ${where}`);
}

/** Open and closed bets of every client (the admin's totals boxes), from the day summaries. */
export async function betTotals(db: Queryable, closedIn: DayRange = {}): Promise<{ open: number; closed: number }> {
  const [open, closed] = await Promise.all([summed(db, 'bet:open:'), summed(db, 'bet:closed:', closedIn)]);
  return { open: open.n, closed: closed.n };
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

// --- The lists' filters and orders ---

type BetFilter = DayRange & { search?: string | undefined };

const openSorts: Record<SortOf<'openBets'>, SQL> = { opened_on: sql`b.opened_at`, stake: sql`b.stake_cents` };
const closedSorts: Record<SortOf<'closedBets'>, SQL> = {
  closed_on: sql`b.closed_at`,
  opened_on: sql`b.opened_at`,
  stake: sql`b.stake_cents`,
  profit: sql`b.profit_cents`,
};

/**
 * The client's name or phone, or what was bet on (bets_owner_description_trgm_idx serves the ilike). The
 * clients searched are the scope's own (clients_owner_*), so that a staff search for a name none of
 * their clients has finds none at once.
 */
function matchingClients(scope: Scope, text: string): { ids: SQL; test: SQL } {
  const test = nameOrPhoneContains(text, sql`c.name`, sql`c.phone`);
  return { ids: sql`select c.id from ${clients} c where ${scopedWhere(scope, 'c', test)}`, test };
}

/** What was bet on contains the text (bets_owner_description_trgm_idx, by its trigrams alone or with the owner). */
const describes = (text: string) => sql`b.description ilike ${containing(text)}`;

/**
 * At most this many matching clients and bets matching by text make a search narrow: its bets are
 * read through the client and trigram indexes and sorted, instead of walking the date index.
 */
const NARROW_SEARCH = 200;

/**
 * Whether a search is narrow (decision 045). Walking the newest-first index and testing each bet stops
 * after a page when matches are dense ("Gor" among Kenyan names: 12 ms), but reads every bet when
 * they are rare (a surname of 1 in 20,000: 2.5 s at a tenth of the reference scale, every closed bet
 * read). Both probes stop at NARROW_SEARCH + 1 rows.
 */
export async function isNarrowSearch(db: Queryable, scope: Scope, status: 'open' | 'closed', search: string | undefined): Promise<boolean> {
  const text = search?.trim();
  if (!text) return false;
  const { ids } = matchingClients(scope, text);
  const [row] = await rows<{ clients: string; described: string }>(db, sql`
    select (select count(*) from (${ids} limit ${NARROW_SEARCH + 1}) m) as clients,
           (select count(*) from (select 1 from ${bets} b where ${betsOfStatusWhere(scope, status, {})} and ${describes(text)}
                                  limit ${NARROW_SEARCH + 1}) d) as described`);
  return Number(row?.clients ?? 0) <= NARROW_SEARCH && Number(row?.described ?? 0) <= NARROW_SEARCH;
}

/**
 * A page's search. A narrow one (and any staff member's) hands the matching clients over as an array
 * (`= any(array(...))`): PostgreSQL then reads their bets by client and the text through its trigram
 * index, instead of visiting every closed bet (of the owner) to test both. A broad admin search keeps
 * the `in (...)` form, under which the newest-first page walks the date index and stops at 50 (12 ms;
 * the array form sorted every match first, 210 ms).
 */
function searchSql(scope: Scope, search: string | undefined, narrow: boolean): SQL {
  const text = search?.trim();
  if (!text) return sql`true`;
  const { ids } = matchingClients(scope, text);
  const ofMatchingClients = scope === 'all' && !narrow ? sql`b.client_id in (${ids})` : sql`b.client_id = any(array(${ids}))`;
  return sql`(${describes(text)} or ${ofMatchingClients})`;
}

/**
 * The bets of a list: the scope's, of one status (written out, so that the partial indexes of that
 * status serve it), closed ones within the days, and any `more` conditions (a page's search).
 */
export function betsOfStatusWhere(scope: Scope, status: 'open' | 'closed', f: BetFilter, ...more: SQL[]): ScopedWhere {
  const ofStatus = status === 'open' ? sql`b.status = 'open'` : sql`b.status = 'closed'`;
  const days = status === 'closed' ? inDays(sql`b.closed_at`, dayRangeOf(f)) : sql`true`;
  return scopedWhere(scope, 'b', ofStatus, days, ...more);
}

/** A list's bets with the page's search (`narrow`: see isNarrowSearch; an export walks its order). */
export const betsListWhere = (scope: Scope, status: 'open' | 'closed', f: BetFilter, narrow = false) =>
  betsOfStatusWhere(scope, status, f, searchSql(scope, f.search, narrow));

export const openBetsOrder = (query: { sort?: SortOf<'openBets'> | undefined; dir?: SortDirection | undefined }) =>
  orderSql('openBets', openSorts, sql`b.id`, query);

export const closedBetsOrder = (query: { sort?: SortOf<'closedBets'> | undefined; dir?: SortDirection | undefined }) =>
  orderSql('closedBets', closedSorts, sql`b.id`, query);

export const newestFirst = sql`b.opened_at desc, b.id desc`;

/** A condition on a client's bets (alias b) of one status, for their page's open bets. */
export function betStatusIs(status: 'open' | 'closed'): SQL {
  return sql`b.status = ${status}`;
}
