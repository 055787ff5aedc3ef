import { and, asc, desc, eq, gte, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { SelectionResult } from '@betdesk/contract';
import { betCategories, tipSelections, tipTicketProofs, tipTickets } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';

export interface TicketRow {
  id: number;
  betCategoryId: number;
  betCategory: string;
  code: string;
  matchDate: string;
  publishedAt: Date;
  firstKickoffAt: Date;
}

/** A leg as stored: the match, its kick-off, the market, the pick and the odds. */
export interface StoredSelection {
  home: string;
  away: string;
  competition: string;
  kickoffAt: Date;
  market: string;
  pick: string;
  oddsHundredths: number;
  /** The feed's fixture (decision 070); null: a typed match. */
  fixtureProvider: string | null;
  fixtureId: string | null;
  oddsSource: string;
  oddsCapturedAt: Date | null;
  feedOddsHundredths: number | null;
  verified: boolean;
}

export interface SelectionRow extends StoredSelection {
  id: number;
  ticketId: number;
  result: SelectionResult | null;
  closingOddsHundredths: number | null;
  proposedResult: SelectionResult | null;
  proposalBasis: string | null;
}

const ticketColumns = {
  id: tipTickets.id,
  betCategoryId: tipTickets.betCategoryId,
  betCategory: betCategories.name,
  code: betCategories.code,
  matchDate: tipTickets.matchDate,
  publishedAt: tipTickets.publishedAt,
  firstKickoffAt: tipTickets.firstKickoffAt,
};

const selectionColumns = {
  id: tipSelections.id,
  ticketId: tipSelections.ticketId,
  home: tipSelections.home,
  away: tipSelections.away,
  competition: tipSelections.competition,
  kickoffAt: tipSelections.kickoffAt,
  market: tipSelections.market,
  pick: tipSelections.pick,
  oddsHundredths: tipSelections.oddsHundredths,
  result: sql<SelectionResult | null>`${tipSelections.result}`,
  fixtureProvider: tipSelections.fixtureProvider,
  fixtureId: tipSelections.fixtureId,
  oddsSource: tipSelections.oddsSource,
  oddsCapturedAt: tipSelections.oddsCapturedAt,
  feedOddsHundredths: tipSelections.feedOddsHundredths,
  verified: tipSelections.verified,
  closingOddsHundredths: tipSelections.closingOddsHundredths,
  proposedResult: sql<SelectionResult | null>`${tipSelections.proposedResult}`,
  proposalBasis: tipSelections.proposalBasis,
};

export interface TicketFilter {
  betCategoryId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function ticketWhere(filter: TicketFilter): SQL | undefined {
  return and(
    filter.betCategoryId === undefined ? undefined : eq(tipTickets.betCategoryId, filter.betCategoryId),
    filter.from ? gte(tipTickets.matchDate, filter.from) : undefined,
    filter.to ? lte(tipTickets.matchDate, filter.to) : undefined,
  );
}

export async function betCategoryExists(db: Queryable, id: number): Promise<boolean> {
  const found = await db.select({ id: betCategories.id }).from(betCategories).where(eq(betCategories.id, id));
  return found.length > 0;
}

/** One page of tickets, newest match date first, with the count of the whole filtered list. */
export async function ticketsPage(
  db: Queryable,
  filter: TicketFilter,
  page: { limit: number; offset: number },
): Promise<{ tickets: TicketRow[]; total: number }> {
  const where = ticketWhere(filter);
  const [found, [counted]] = await Promise.all([
    db
      .select(ticketColumns)
      .from(tipTickets)
      .innerJoin(betCategories, eq(betCategories.id, tipTickets.betCategoryId))
      .where(where)
      .orderBy(desc(tipTickets.matchDate), asc(tipTickets.betCategoryId))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(tipTickets).where(where),
  ]);
  return { tickets: found, total: Number(counted?.n ?? 0) };
}

export async function ticketOfDay(db: Queryable, betCategoryId: number, matchDate: string): Promise<TicketRow | null> {
  const [found] = await db
    .select(ticketColumns)
    .from(tipTickets)
    .innerJoin(betCategories, eq(betCategories.id, tipTickets.betCategoryId))
    .where(and(eq(tipTickets.betCategoryId, betCategoryId), eq(tipTickets.matchDate, matchDate)))
    .for('update', { of: tipTickets });
  return found ?? null;
}

export async function ticketsOfCategoriesOnDay(db: Queryable, betCategoryIds: number[], matchDate: string): Promise<TicketRow[]> {
  if (betCategoryIds.length === 0) return [];
  return db
    .select(ticketColumns)
    .from(tipTickets)
    .innerJoin(betCategories, eq(betCategories.id, tipTickets.betCategoryId))
    .where(and(inArray(tipTickets.betCategoryId, betCategoryIds), eq(tipTickets.matchDate, matchDate)))
    .orderBy(asc(tipTickets.betCategoryId));
}

export async function selectionsOf(db: Queryable, ticketIds: number[]): Promise<SelectionRow[]> {
  if (ticketIds.length === 0) return [];
  return db
    .select(selectionColumns)
    .from(tipSelections)
    .where(inArray(tipSelections.ticketId, ticketIds))
    .orderBy(asc(tipSelections.ticketId), asc(tipSelections.position));
}

/** The same leg: same fixture (or typed match), kick-off, market, pick and odds. */
export const sameLeg = (a: StoredSelection, b: StoredSelection) =>
  a.fixtureProvider === b.fixtureProvider &&
  a.fixtureId === b.fixtureId &&
  a.home === b.home &&
  a.away === b.away &&
  a.competition === b.competition &&
  new Date(a.kickoffAt).getTime() === new Date(b.kickoffAt).getTime() &&
  a.market === b.market &&
  a.pick === b.pick &&
  a.oddsHundredths === b.oddsHundredths;

export async function insertTicket(
  db: Queryable,
  t: { betCategoryId: number; matchDate: string; firstKickoffAt: Date; userId: number },
): Promise<number> {
  const [row] = await db
    .insert(tipTickets)
    .values({
      betCategoryId: t.betCategoryId,
      matchDate: t.matchDate,
      firstKickoffAt: t.firstKickoffAt,
      createdBy: t.userId,
      updatedBy: t.userId,
    })
    .returning({ id: tipTickets.id });
  return row!.id;
}

/**
 * Replaces a ticket's legs; storing new legs is a new publication. A leg stored again unchanged
 * keeps its row (and id, which a results list may hold), moved to its new position; the others go.
 */
export async function replaceSelections(
  db: Queryable,
  ticketId: number,
  before: (StoredSelection & { id: number })[],
  selections: StoredSelection[],
  republish: { firstKickoffAt: Date; userId: number } | null,
): Promise<void> {
  const left = [...before];
  const placed = selections.map((s, position) => {
    const i = left.findIndex((old) => sameLeg(old, s));
    const kept = i >= 0 ? left.splice(i, 1)[0]! : null;
    return { s, position, keptId: kept?.id ?? null };
  });
  if (left.length > 0) await db.delete(tipSelections).where(inArray(tipSelections.id, left.map((l) => l.id)));
  for (const p of placed) {
    if (p.keptId !== null) await db.update(tipSelections).set({ position: p.position }).where(eq(tipSelections.id, p.keptId));
  }
  const added = placed.filter((p) => p.keptId === null);
  if (added.length > 0) {
    await db.insert(tipSelections).values(
      added.map((p) => ({
        ticketId,
        position: p.position,
        home: p.s.home,
        away: p.s.away,
        competition: p.s.competition,
        kickoffAt: p.s.kickoffAt,
        market: p.s.market,
        pick: p.s.pick,
        oddsHundredths: p.s.oddsHundredths,
        fixtureProvider: p.s.fixtureProvider,
        fixtureId: p.s.fixtureId,
        oddsSource: p.s.oddsSource,
        oddsCapturedAt: p.s.oddsCapturedAt,
        feedOddsHundredths: p.s.feedOddsHundredths,
        verified: p.s.verified,
      })),
    );
  }
  if (republish) {
    await db
      .update(tipTickets)
      .set({ publishedAt: sql`now()`, firstKickoffAt: republish.firstKickoffAt, updatedBy: republish.userId })
      .where(eq(tipTickets.id, ticketId));
  }
}

export async function ticketById(db: Queryable, id: number): Promise<TicketRow | null> {
  const [found] = await db
    .select(ticketColumns)
    .from(tipTickets)
    .innerJoin(betCategories, eq(betCategories.id, tipTickets.betCategoryId))
    .where(eq(tipTickets.id, id));
  return found ?? null;
}

/** Legs that kicked off and have no result (and match `also`), oldest first, at most 500 (tip_selections_awaiting_idx). */
function unsettledLegs(db: Queryable, also?: SQL) {
  return db
    .select({
      ...selectionColumns,
      betCategory: betCategories.name,
      code: betCategories.code,
      matchDate: tipTickets.matchDate,
    })
    .from(tipSelections)
    .innerJoin(tipTickets, eq(tipTickets.id, tipSelections.ticketId))
    .innerJoin(betCategories, eq(betCategories.id, tipTickets.betCategoryId))
    .where(and(isNull(tipSelections.result), also, lte(tipSelections.kickoffAt, sql`now()`)))
    .orderBy(asc(tipSelections.kickoffAt), asc(tipSelections.id))
    .limit(500);
}

/** Legs that kicked off and have no result, oldest first. */
export async function awaitingSelections(db: Queryable) {
  return unsettledLegs(db);
}

export async function selectionsForResult(db: Queryable, ids: number[]) {
  return db
    .select({ ...selectionColumns, kickedOff: sql<boolean>`${tipSelections.kickoffAt} <= now()` })
    .from(tipSelections)
    .where(inArray(tipSelections.id, ids))
    .for('update');
}

/** The legs of one category's ticket of a day (no lock: read before the store's transaction to reuse unchanged legs). */
export async function selectionsOfDay(db: Queryable, betCategoryId: number, matchDate: string): Promise<SelectionRow[]> {
  return db
    .select(selectionColumns)
    .from(tipSelections)
    .innerJoin(tipTickets, eq(tipTickets.id, tipSelections.ticketId))
    .where(and(eq(tipTickets.betCategoryId, betCategoryId), eq(tipTickets.matchDate, matchDate)))
    .orderBy(asc(tipSelections.position));
}

export interface OpenFixtureLeg {
  id: number;
  fixtureProvider: string;
  fixtureId: string;
  kickoffAt: Date;
  market: string;
  pick: string;
  closingOddsHundredths: number | null;
  proposedResult: SelectionResult | null;
}

/**
 * Legs on a feed fixture without a result whose kick-off is before `before` (tip_selections_open_fixture_idx):
 * the fixtures the feed's jobs ask about, and nothing else.
 */
export async function openFixtureLegs(db: Queryable, before: Date): Promise<OpenFixtureLeg[]> {
  return db
    .select({
      id: tipSelections.id,
      fixtureProvider: sql<string>`${tipSelections.fixtureProvider}`,
      fixtureId: sql<string>`${tipSelections.fixtureId}`,
      kickoffAt: tipSelections.kickoffAt,
      market: tipSelections.market,
      pick: tipSelections.pick,
      closingOddsHundredths: tipSelections.closingOddsHundredths,
      proposedResult: sql<SelectionResult | null>`${tipSelections.proposedResult}`,
    })
    .from(tipSelections)
    .where(and(sql`${tipSelections.fixtureId} is not null`, isNull(tipSelections.result), lte(tipSelections.kickoffAt, before)))
    .orderBy(asc(tipSelections.kickoffAt), asc(tipSelections.id))
    .limit(2000);
}

export async function setProposal(db: Queryable, id: number, result: SelectionResult, basis: string): Promise<void> {
  await db
    .update(tipSelections)
    .set({ proposedResult: result, proposalBasis: basis, proposedAt: sql`now()` })
    .where(and(eq(tipSelections.id, id), isNull(tipSelections.result)));
}

export async function setClosingOdds(db: Queryable, id: number, oddsHundredths: number): Promise<void> {
  await db
    .update(tipSelections)
    .set({ closingOddsHundredths: oddsHundredths, closingCapturedAt: sql`now()` })
    .where(and(eq(tipSelections.id, id), isNull(tipSelections.closingOddsHundredths)));
}

/** Legs without a result the feed proposes one for, oldest kick-off first. */
export async function proposedSelections(db: Queryable) {
  return unsettledLegs(db, sql`${tipSelections.proposedResult} is not null`);
}

export async function setResult(db: Queryable, id: number, result: SelectionResult, userId: number): Promise<void> {
  await db
    .update(tipSelections)
    .set({ result, resultAt: sql`now()`, resultBy: userId })
    .where(eq(tipSelections.id, id));
}

export interface RecordLegRow {
  ticket_id: number;
  code: string;
  bet_category: string;
  match_date: string;
  published_at: Date | string;
  home: string;
  away: string;
  competition: string;
  kickoff_at: Date | string;
  market: string;
  pick: string;
  odds_hundredths: number;
  result: SelectionResult | null;
  closing_odds_hundredths: number | null;
  verified: boolean;
}

/**
 * The legs of every ticket that counts (published before its first kick-off) in the period, in the
 * order the tickets were played. One category reads tip_tickets_category_day_idx, all categories
 * tip_tickets_match_date_idx; the legs come by tip_selections_ticket_idx.
 */
export function recordLegs(db: Queryable, filter: TicketFilter): Promise<RecordLegRow[]> {
  return rows<RecordLegRow>(db, recordLegsQuery(filter));
}

export function recordLegsQuery(filter: TicketFilter): SQL {
  const conditions = [sql`t.published_at < t.first_kickoff_at`];
  if (filter.betCategoryId !== undefined) conditions.push(sql`t.bet_category_id = ${filter.betCategoryId}`);
  if (filter.from) conditions.push(sql`t.match_date >= ${filter.from}`);
  if (filter.to) conditions.push(sql`t.match_date <= ${filter.to}`);
  return sql`select t.id as ticket_id, bc.code, bc.name as bet_category, t.match_date::text as match_date,
                    t.published_at, s.home, s.away, s.competition, s.kickoff_at, s.market, s.pick,
                    s.odds_hundredths, s.result, s.closing_odds_hundredths, s.verified
               from ${tipTickets} t
               join ${betCategories} bc on bc.id = t.bet_category_id
               join ${tipSelections} s on s.ticket_id = t.id
              where ${sql.join(conditions, sql` and `)}
              order by t.match_date, t.first_kickoff_at, t.id, s.position`;
}

export async function betCategoryByCode(db: Queryable, code: string): Promise<{ id: number; name: string; code: string } | null> {
  const [found] = await db
    .select({ id: betCategories.id, name: betCategories.name, code: betCategories.code })
    .from(betCategories)
    .where(eq(betCategories.code, code.toUpperCase()));
  return found ?? null;
}

export interface PublicTicketRow {
  id: number;
  bet_category: string;
  code: string;
  match_date: string;
  total_records: number | string;
}

/**
 * One page of the tickets the public record lists, newest first: tickets that count (published
 * before their first kick-off) whose every leg has kicked off and has a result, so no pick is shown
 * before its match starts. One category walks tip_tickets_category_day_idx (bet_category_id,
 * match_date) backwards, all categories tip_tickets_match_date_idx; each ticket's legs are checked by
 * tip_selections_ticket_idx. The count comes with the page (a window over the same index range).
 */
export async function publicTicketsPage(
  db: Queryable,
  filter: TicketFilter,
  page: { limit: number; offset: number },
): Promise<{ tickets: PublicTicketRow[]; total: number }> {
  const conditions = [
    sql`t.published_at < t.first_kickoff_at`,
    sql`not exists (select 1 from ${tipSelections} s where s.ticket_id = t.id and (s.result is null or s.kickoff_at > now()))`,
  ];
  if (filter.betCategoryId !== undefined) conditions.push(sql`t.bet_category_id = ${filter.betCategoryId}`);
  if (filter.from) conditions.push(sql`t.match_date >= ${filter.from}`);
  if (filter.to) conditions.push(sql`t.match_date <= ${filter.to}`);
  const where = sql.join(conditions, sql` and `);
  const found = await rows<PublicTicketRow>(
    db,
    sql`select t.id, bc.name as bet_category, bc.code, t.match_date::text as match_date, count(*) over() as total_records
          from ${tipTickets} t
          join ${betCategories} bc on bc.id = t.bet_category_id
         where ${where}
         order by t.match_date desc, t.first_kickoff_at desc, t.id desc
         limit ${page.limit} offset ${page.offset}`,
  );
  let total = Number(found[0]?.total_records ?? 0);
  if (found.length === 0 && page.offset > 0) {
    const [counted] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${tipTickets} t where ${where}`);
    total = Number(counted?.n ?? 0);
  }
  return { tickets: found, total };
}

export async function betCategoryById(db: Queryable, id: number): Promise<{ id: number; name: string; code: string } | null> {
  const [found] = await db.select({ id: betCategories.id, name: betCategories.name, code: betCategories.code }).from(betCategories).where(eq(betCategories.id, id));
  return found ?? null;
}

/** The chain's first `prev_hash`: 64 zeros. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * Appends a publication to the proof chain (decision 071): one chain for every process, so the
 * head is read under a transaction-scoped advisory lock and the link written before it is released.
 */
export async function appendProof(tx: Queryable, ticketId: number, content: string, hashOf: (prev: string) => string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('betdesk-tip-proof-chain'))`);
  const [head] = await tx.select({ hash: tipTicketProofs.hash }).from(tipTicketProofs).orderBy(desc(tipTicketProofs.seq)).limit(1);
  const prevHash = head?.hash ?? GENESIS_HASH;
  await tx.insert(tipTicketProofs).values({ ticketId, content, prevHash, hash: hashOf(prevHash) });
}

export interface ProofRow {
  ticketId: number;
  content: string;
  prevHash: string;
  hash: string;
}

/** The latest link of each of these tickets (tip_ticket_proofs_ticket_idx). */
export async function latestProofs(db: Queryable, ticketIds: number[]): Promise<Map<number, ProofRow>> {
  if (ticketIds.length === 0) return new Map();
  const found = await db
    .selectDistinctOn([tipTicketProofs.ticketId], {
      ticketId: tipTicketProofs.ticketId,
      content: tipTicketProofs.content,
      prevHash: tipTicketProofs.prevHash,
      hash: tipTicketProofs.hash,
    })
    .from(tipTicketProofs)
    .where(inArray(tipTicketProofs.ticketId, ticketIds))
    .orderBy(tipTicketProofs.ticketId, desc(tipTicketProofs.seq));
  return new Map(found.map((p) => [p.ticketId, p]));
}

/** The chain's last hash, or null before the first publication. */
export async function chainHead(db: Queryable): Promise<string | null> {
  const [head] = await db.select({ hash: tipTicketProofs.hash }).from(tipTicketProofs).orderBy(desc(tipTicketProofs.seq)).limit(1);
  return head?.hash ?? null;
}

/** The whole chain in order (the proof's CSV). */
export async function proofChain(db: Queryable): Promise<(ProofRow & { seq: number })[]> {
  return db
    .select({ seq: tipTicketProofs.seq, ticketId: tipTicketProofs.ticketId, content: tipTicketProofs.content, prevHash: tipTicketProofs.prevHash, hash: tipTicketProofs.hash })
    .from(tipTicketProofs)
    .orderBy(asc(tipTicketProofs.seq));
}
