import type { z } from 'zod';
import {
  can,
  combinedOdds,
  formatDateTime,
  type AwaitingSelection,
  type PublicTicket,
  type RecordQuery,
  type ResultsInput,
  type Selection,
  type Ticket,
  type TicketInput,
  type TicketsQuery,
  type TrackRecord,
  refusalTexts,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { releaseLease, takeLease } from '../../db/leases.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import type { Actor } from '../../http/actor.ts';
import type { CsvTable } from '../../http/csv.ts';
import { conflict, fieldError, forbidden, invalid, type FieldErrors } from '../../http/errors.ts';
import { audit, byStaff } from '../audit/service.ts';
import { refreshFixtures, storedFixtures, takePrices, type FixtureRow, type TakenPrice } from '../feed/service.ts';
import { getSettings } from '../settings/service.ts';
import { clvPercent, proposeResult } from './feed-results.ts';
import { computeRecord, settleTicket, type RecordTicket } from './settlement.ts';
import * as q from './queries.ts';

const odds = (hundredths: number) => hundredths / 100;
const name = (s: { home: string; away: string }) => `${s.home}-${s.away}`;

function toSelection(s: q.SelectionRow): Selection {
  return {
    id: s.id,
    home: s.home,
    away: s.away,
    competition: s.competition,
    kickoff: new Date(s.kickoffAt).toISOString(),
    market: s.market,
    pick: s.pick,
    odds: odds(s.oddsHundredths),
    result: s.result,
    fixture: s.fixtureProvider && s.fixtureId ? { provider: s.fixtureProvider as 'api-football', id: s.fixtureId } : null,
    odds_source: s.oddsSource,
    odds_captured_at: s.oddsCapturedAt ? new Date(s.oddsCapturedAt).toISOString() : null,
    closing_odds: s.closingOddsHundredths === null ? null : odds(s.closingOddsHundredths),
    clv: clvPercent(s.oddsHundredths, s.closingOddsHundredths),
    verified: s.verified,
    feed_result: s.proposedResult,
  };
}

function toTicket(t: q.TicketRow, legs: q.SelectionRow[]): Ticket {
  const settlement = settleTicket(legs.map((l) => ({ odds: odds(l.oddsHundredths), result: l.result })));
  return {
    id: t.id,
    bet_category_id: t.betCategoryId,
    bet_category: t.betCategory,
    code: t.code,
    match_date: t.matchDate,
    published_at: new Date(t.publishedAt).toISOString(),
    counts: new Date(t.publishedAt) < new Date(t.firstKickoffAt),
    combined_odds: combinedOdds(legs.map((l) => odds(l.oddsHundredths))),
    status: settlement.status,
    profit_units: settlement.profit === null ? null : Math.round(settlement.profit * 100) / 100,
    selections: legs.map(toSelection),
  };
}

export async function listTickets(
  db: Queryable,
  query: z.output<typeof TicketsQuery>,
): Promise<{ tickets: Ticket[]; total_records: number }> {
  const { tickets, total } = await q.ticketsPage(
    db,
    { betCategoryId: query.bet_category_id, from: query.from, to: query.to },
    { limit: query.perPage, offset: (query.page - 1) * query.perPage },
  );
  const legs = await q.selectionsOf(
    db,
    tickets.map((t) => t.id),
  );
  return { tickets: tickets.map((t) => toTicket(t, legs.filter((l) => l.ticketId === t.id))), total_records: total };
}

/** The tickets of these bet categories for one match date, in category order (a post shows them). */
export async function ticketsOfDay(db: Queryable, betCategoryIds: number[], matchDate: string): Promise<Ticket[]> {
  const found = await q.ticketsOfCategoriesOnDay(db, betCategoryIds, matchDate);
  const legs = await q.selectionsOf(
    db,
    found.map((t) => t.id),
  );
  return found.map((t) => toTicket(t, legs.filter((l) => l.ticketId === t.id)));
}

const kickedOffText = (s: q.StoredSelection) => `${name(s)} kicked off at ${formatDateTime(s.kickoffAt)}`;

type LegInput = z.output<typeof TicketInput>['selections'][number];

const fixtureKey = (provider: string, id: string) => `${provider}:${id}`;
const NOT_PLAYABLE = new Set(['postponed', 'cancelled', 'abandoned', 'awarded', 'finished']);

/**
 * A leg as the ticket will store it. A typed match is stored as typed and not verified. A fixture
 * leg takes its teams, competition and kick-off from the feed's local fixture, and its price from
 * the feed at publishing (the bookmaker of `feed_odds_bookmaker`, else the median): typed odds
 * more than `feed_odds_tolerance_percent` above it are refused (422 naming the odds) or kept
 * unverified (`feed_odds_refuse_above` off). The feed down: typed odds are kept, not verified.
 * A leg already on the ticket with the same fixture, market, pick (and typed odds) is kept as
 * it was, so storing a ticket again changes nothing.
 */
async function legsToStore(deps: Pick<AppDeps, 'db' | 'sportsFeed'>, input: z.output<typeof TicketInput>): Promise<q.StoredSelection[]> {
  const before = await q.selectionsOfDay(deps.db, input.bet_category_id, input.match_date);
  const errors: FieldErrors = {};
  const refs = input.selections.flatMap((s) => (s.fixture ? [s.fixture] : []));
  const fixtures = new Map<string, FixtureRow>();
  for (const provider of new Set(refs.map((r) => r.provider))) {
    const ids = [...new Set(refs.filter((r) => r.provider === provider).map((r) => r.id))];
    for (const f of await storedFixtures(deps.db, provider, ids)) fixtures.set(fixtureKey(f.provider, f.externalId), f);
  }
  const settings = await getSettings(deps.db, ['feed_odds_tolerance_percent', 'feed_odds_refuse_above']);
  const kept = (s: LegInput) =>
    before.find(
      (old) =>
        old.fixtureProvider === s.fixture!.provider &&
        old.fixtureId === s.fixture!.id &&
        old.market === s.market &&
        old.pick === s.pick &&
        (s.odds === undefined || Math.round(s.odds * 100) === old.oddsHundredths),
    );
  // One price request per fixture for the legs that need one.
  const wantPrices = new Map<string, { provider: string; id: string; legs: number[] }>();
  input.selections.forEach((s, i) => {
    if (!s.fixture || kept(s) || !fixtures.has(fixtureKey(s.fixture.provider, s.fixture.id))) return;
    const key = fixtureKey(s.fixture.provider, s.fixture.id);
    const entry = wantPrices.get(key) ?? { provider: s.fixture.provider, id: s.fixture.id, legs: [] };
    entry.legs.push(i);
    wantPrices.set(key, entry);
  });
  const prices = new Map<number, TakenPrice | null>();
  for (const { provider, id, legs } of wantPrices.values()) {
    const taken = await takePrices(deps, provider, id, legs.map((i) => ({ market: input.selections[i]!.market, selection: input.selections[i]!.pick })));
    legs.forEach((leg, j) => prices.set(leg, taken ? taken[j]! : null));
  }

  const wanted = input.selections.map((s, i): q.StoredSelection | null => {
    if (!s.fixture) {
      return {
        home: s.home!,
        away: s.away!,
        competition: s.competition!,
        kickoffAt: new Date(s.kickoff!),
        market: s.market,
        pick: s.pick,
        oddsHundredths: Math.round(s.odds! * 100),
        fixtureProvider: null,
        fixtureId: null,
        oddsSource: 'typed',
        oddsCapturedAt: null,
        feedOddsHundredths: null,
        verified: false,
      };
    }
    const same = kept(s);
    if (same) return same;
    const fixture = fixtures.get(fixtureKey(s.fixture.provider, s.fixture.id));
    if (!fixture) {
      errors[`selections.${i}.fixture`] = ["This fixture is not among the feed's fixtures: pick it again"];
      return null;
    }
    if (NOT_PLAYABLE.has(fixture.status)) {
      errors[`selections.${i}.fixture`] = [`${fixture.home}-${fixture.away} is ${fixture.status}: it cannot be tipped`];
      return null;
    }
    const match = { home: fixture.home, away: fixture.away, competition: fixture.competition, kickoffAt: new Date(fixture.kickoffAt) };
    const ref = { fixtureProvider: fixture.provider, fixtureId: fixture.externalId, market: s.market, pick: s.pick };
    const feed = prices.get(i) ?? null;
    if (!feed) {
      if (s.odds === undefined) {
        errors[`selections.${i}.odds`] = ['The feed gives no price for this pick now: enter the odds'];
        return null;
      }
      return { ...match, ...ref, oddsHundredths: Math.round(s.odds * 100), oddsSource: 'typed', oddsCapturedAt: null, feedOddsHundredths: null, verified: false };
    }
    const captured = { oddsCapturedAt: feed.capturedAt, feedOddsHundredths: feed.oddsHundredths };
    if (s.odds === undefined) return { ...match, ...ref, ...captured, oddsHundredths: feed.oddsHundredths, oddsSource: feed.source, verified: true };
    const typed = Math.round(s.odds * 100);
    const ceiling = feed.oddsHundredths * (1 + settings.feed_odds_tolerance_percent / 100);
    const within = typed <= ceiling + 1e-9;
    if (!within && settings.feed_odds_refuse_above) {
      const by = feed.source === 'feed:median' ? "the feed's median price" : `${feed.source.slice('feed:'.length)}'s price`;
      errors[`selections.${i}.odds`] = [
        `${formatOddsValue(typed)} is more than ${settings.feed_odds_tolerance_percent}% above ${by} of ${formatOddsValue(feed.oddsHundredths)}`,
      ];
      return null;
    }
    return { ...match, ...ref, ...captured, oddsHundredths: typed, oddsSource: 'typed', verified: within };
  });
  if (Object.keys(errors).length > 0) throw invalid(errors, refusalTexts.ticketLegsRefused);
  return wanted as q.StoredSelection[];
}

/**
 * What the proof chain keeps of a publication (decision 071): the ticket as published, in a fixed
 * key order, so anyone can rebuild the text from the public record and check its hash.
 */
export function proofContent(t: Pick<Ticket, 'id' | 'code' | 'match_date' | 'published_at' | 'selections'>): string {
  return JSON.stringify({
    ticket: t.id,
    code: t.code,
    match_date: t.match_date,
    published_at: t.published_at,
    legs: t.selections.map((s) => ({
      home: s.home,
      away: s.away,
      competition: s.competition,
      kickoff: s.kickoff,
      market: s.market,
      pick: s.pick,
      odds: s.odds.toFixed(2),
      fixture: s.fixture ? `${s.fixture.provider}:${s.fixture.id}` : null,
    })),
  });
}

/** A link's hash: SHA-256 of the previous hash, a newline and the content (hex). */
export const proofHash = (prev: string, content: string) => sha256Hex(`${prev}\n${content}`);

/** The proof chain's head (null before the first publication). */
export const proofChainHead = (db: Queryable) => q.chainHead(db);

/** The whole chain, oldest first: what /portal/record.csv gives to anyone who wants to check it. */
export async function proofChainCsv(db: Queryable): Promise<CsvTable<q.ProofRow & { seq: number }>> {
  return {
    filename: 'record-proof',
    columns: [
      { header: 'Link', value: (r) => r.seq },
      { header: 'Ticket', value: (r) => r.ticketId },
      { header: 'Previous hash', value: (r) => r.prevHash },
      { header: 'Hash', value: (r) => r.hash },
      { header: 'Content', value: (r) => r.content },
    ],
    rows: [await q.proofChain(db)],
  };
}

const formatOddsValue = (hundredths: number) => (hundredths / 100).toFixed(2);

/**
 * Stores a category's ticket of a day. It replaces the day's ticket until its first leg kicks off;
 * from then on the ticket is fixed (409 naming the leg), so its place in the record cannot change.
 * New legs are a new publication: the ticket counts in the record only when that comes before its
 * first kick-off. Legs stored again unchanged keep their ids. Fixture legs are resolved against the
 * feed before the transaction (legsToStore), so no provider call holds a lock.
 */
export async function storeTicket(
  deps: Pick<AppDeps, 'db' | 'sportsFeed'>,
  actor: Actor,
  input: z.output<typeof TicketInput>,
  requestId: string,
): Promise<{ message: string; ticket: Ticket }> {
  if (!(await q.betCategoryExists(deps.db, input.bet_category_id))) {
    throw fieldError('bet_category_id', refusalTexts.betCategoryNotFound);
  }
  const wanted = await legsToStore(deps, input);
  return deps.db.transaction(async (tx) => {
    const now = Date.now();
    const firstKickoffAt = new Date(Math.min(...wanted.map((s) => s.kickoffAt.getTime())));
    const existing = await q.ticketOfDay(tx, input.bet_category_id, input.match_date);
    const before = existing ? await q.selectionsOf(tx, [existing.id]) : [];

    if (before.some((s) => s.result !== null)) {
      throw conflict(`The ticket of ${input.match_date} already has results: it can no longer be replaced`);
    }
    for (const old of before) {
      if (old.kickoffAt.getTime() <= now && !wanted.some((w) => q.sameLeg(w, old))) {
        throw conflict(`${kickedOffText(old)}: it can no longer be changed or removed`);
      }
    }
    for (const leg of wanted) {
      if (leg.kickoffAt.getTime() <= now && !before.some((old) => q.sameLeg(leg, old))) {
        throw conflict(`${kickedOffText(leg)}: it can no longer be added`);
      }
    }

    const unchanged = before.length === wanted.length && before.every((old, i) => q.sameLeg(old, wanted[i]!));
    if (existing && unchanged) {
      return { message: 'The ticket did not change', ticket: toTicket(existing, before) };
    }
    // Once a leg has kicked off the ticket's place in the record is fixed: any change would be a
    // new publication after kick-off, which takes a ticket out of the record, so a tipster could
    // withdraw a ticket that is going badly by adding a later leg.
    const started = before.filter((old) => old.kickoffAt.getTime() <= now).sort((a, b) => a.kickoffAt.getTime() - b.kickoffAt.getTime());
    if (started.length > 0) {
      throw conflict(`${kickedOffText(started[0]!)}: the ticket is fixed in the record and can no longer be changed`, 'ticket_started');
    }
    let ticketId: number;
    if (existing) {
      ticketId = existing.id;
      await q.replaceSelections(tx, ticketId, before, wanted, { firstKickoffAt, userId: actor.userId });
    } else {
      ticketId = await q.insertTicket(tx, {
        betCategoryId: input.bet_category_id,
        matchDate: input.match_date,
        firstKickoffAt,
        userId: actor.userId,
      });
      await q.replaceSelections(tx, ticketId, [], wanted, null);
    }
    const ticket = toTicket((await q.ticketById(tx, ticketId))!, await q.selectionsOf(tx, [ticketId]));
    const content = proofContent(ticket);
    await q.appendProof(tx, ticketId, content, (prev) => proofHash(prev, content));
    await audit(tx, existing ? 'tip-ticket.replace' : 'tip-ticket.create', ticketId, byStaff(actor, requestId), {
      before: existing ? { selections: before.map(toSelection) } : null,
      after: { selections: ticket.selections, published_at: ticket.published_at },
    });
    return { message: `Ticket of ${input.match_date} saved`, ticket };
  });
}

type AwaitingRow = Awaited<ReturnType<typeof q.awaitingSelections>>[number];

const toAwaiting = (s: AwaitingRow): AwaitingSelection => ({
  ...toSelection(s),
  ticket_id: s.ticketId,
  bet_category: s.betCategory,
  code: s.code,
  match_date: s.matchDate,
  proposed_result: s.proposedResult,
  proposal_basis: s.proposalBasis,
});

export async function awaitingResults(db: Queryable): Promise<AwaitingSelection[]> {
  return (await q.awaitingSelections(db)).map(toAwaiting);
}

/** Legs without a result that the feed proposes one for (decision 070). */
export async function proposedResults(db: Queryable): Promise<AwaitingSelection[]> {
  return (await q.proposedSelections(db)).map(toAwaiting);
}

/** The least length of the reason for a result other than the feed's proposal. */
const REASON_MIN = 10;

/**
 * Enters results of legs that kicked off. A leg that already has another result is a correction:
 * admins only, audited with the result before and after. `confirm_feed` takes the feed's proposal
 * (decision 070); a result other than the proposal is an admin's, with a reason, audited as
 * `tip-result.override-feed`.
 */
export async function enterResults(
  db: Db,
  actor: Actor,
  input: z.output<typeof ResultsInput>,
  requestId: string,
): Promise<{ message: string; entered: number; corrected: number }> {
  return db.transaction(async (tx) => {
    const ids = input.results.map((r) => r.selection_id);
    const found = new Map((await q.selectionsForResult(tx, ids)).map((s) => [s.id, s]));
    const errors: FieldErrors = {};
    const seen = new Set<number>();
    const stale: number[] = [];
    input.results.forEach((r, i) => {
      const leg = found.get(r.selection_id);
      if (seen.has(r.selection_id)) errors[`results.${i}.selection_id`] = ['This selection appears twice'];
      else if (!leg) {
        stale.push(r.selection_id);
        errors[`results.${i}.selection_id`] = [`Selection ${r.selection_id} is no longer on any ticket: its ticket was changed`];
      } else if (!leg.kickedOff) errors[`results.${i}.result`] = [`${name(leg)} has not kicked off yet`];
      else if (r.confirm_feed && leg.proposedResult === null) errors[`results.${i}.confirm_feed`] = [`The feed proposes no result for ${name(leg)}: choose one`];
      else if (r.confirm_feed && r.result !== undefined && r.result !== leg.proposedResult) {
        errors[`results.${i}.result`] = [`The feed proposes ${leg.proposedResult}: confirm it or choose another result without confirm_feed`];
      } else if (!r.confirm_feed && leg.proposedResult !== null && r.result !== leg.proposedResult && (r.reason ?? '').length < REASON_MIN) {
        errors[`results.${i}.reason`] = [`The feed proposes ${leg.proposedResult} (${leg.proposalBasis}): give the reason for another result (at least ${REASON_MIN} characters)`];
      }
      seen.add(r.selection_id);
    });
    // The batch is all or nothing: a list read before a ticket changed holds ids that are gone.
    if (Object.keys(errors).length > 0) {
      throw invalid(
        errors,
        stale.length > 0
          ? `No result was entered: selection${stale.length === 1 ? '' : 's'} ${stale.join(', ')} no longer exist${stale.length === 1 ? 's' : ''} (the ticket was changed). Reload the list and enter them again.`
          : 'No result was entered: correct the results marked.',
      );
    }

    let entered = 0;
    let corrected = 0;
    for (const r of input.results) {
      const leg = found.get(r.selection_id)!;
      const result = (r.result ?? leg.proposedResult)!;
      if (leg.result === result) continue;
      const correction = leg.result !== null;
      const againstFeed = !r.confirm_feed && leg.proposedResult !== null && result !== leg.proposedResult;
      if ((correction || againstFeed) && !can(actor.role, 'correct:tip-results')) {
        throw forbidden(
          correction
            ? `${name(leg)} already has a result: only an admin can correct it`
            : `The feed proposes ${leg.proposedResult} for ${name(leg)}: only an admin can enter another result, with a reason`,
        );
      }
      await q.setResult(tx, leg.id, result, actor.userId);
      const action = correction ? 'tip-result.correct' : againstFeed ? 'tip-result.override-feed' : 'tip-result.enter';
      await audit(tx, action, leg.id, byStaff(actor, requestId), {
        before: { result: leg.result, ...(leg.proposedResult ? { feed_proposed: leg.proposedResult, feed_basis: leg.proposalBasis } : {}) },
        after: { result, ...(r.confirm_feed ? { confirmed_from_feed: true } : {}), ...(r.reason ? { reason: r.reason } : {}) },
      });
      if (correction) corrected += 1;
      else entered += 1;
    }
    const parts = [`${entered} result${entered === 1 ? '' : 's'} entered`];
    if (corrected > 0) parts.push(`${corrected} corrected`);
    return { message: parts.join(', '), entered, corrected };
  });
}

interface RecordTicketWithLegs extends RecordTicket {
  legRows: q.RecordLegRow[];
}

/** The counting tickets of the period with their legs, in the order they were played. */
async function recordTickets(db: Queryable, query: z.output<typeof RecordQuery>): Promise<RecordTicketWithLegs[]> {
  const legRows = await q.recordLegs(db, { betCategoryId: query.bet_category_id, from: query.from, to: query.to });
  const byTicket = new Map<number, RecordTicketWithLegs>();
  for (const leg of legRows) {
    let ticket = byTicket.get(leg.ticket_id);
    if (!ticket) {
      ticket = { match_date: leg.match_date, combined_odds: 0, legs: [], legRows: [] };
      byTicket.set(leg.ticket_id, ticket);
    }
    ticket.legRows.push(leg);
  }
  return [...byTicket.values()].map((t) => {
    const legs = t.legRows.map((l) => ({
      odds: odds(Number(l.odds_hundredths)),
      result: l.result,
      clv: clvPercent(Number(l.odds_hundredths), l.closing_odds_hundredths === null ? null : Number(l.closing_odds_hundredths)),
      verified: l.verified,
    }));
    return { ...t, legs, combined_odds: combinedOdds(legs.map((l) => l.odds)) };
  });
}

export async function trackRecord(db: Queryable, query: z.output<typeof RecordQuery>): Promise<TrackRecord> {
  return computeRecord(await recordTickets(db, query), { from: query.from ?? null, to: query.to ?? null });
}

interface CsvLeg {
  leg: q.RecordLegRow;
  status: string;
  combined: number;
  profit: number;
}

/** Every settled ticket of the record with its legs, one row per leg. */
export async function trackRecordCsv(db: Queryable, query: z.output<typeof RecordQuery>): Promise<CsvTable<CsvLeg>> {
  const settled: CsvLeg[] = [];
  for (const ticket of await recordTickets(db, query)) {
    const { status, profit } = settleTicket(ticket.legs);
    if (status === 'pending') continue;
    for (const leg of ticket.legRows) {
      settled.push({ leg, status, combined: ticket.combined_odds, profit: Math.round(profit! * 100) / 100 });
    }
  }
  return {
    filename: 'track-record',
    columns: [
      { header: 'Ticket', value: (r) => r.leg.ticket_id },
      { header: 'Bet category', value: (r) => r.leg.bet_category },
      { header: 'Match date', value: (r) => r.leg.match_date },
      { header: 'Published', value: (r) => formatDateTime(r.leg.published_at) },
      { header: 'Combined odds', value: (r) => r.combined.toFixed(2) },
      { header: 'Ticket result', value: (r) => r.status },
      { header: 'Profit (units)', value: (r) => r.profit.toFixed(2) },
      { header: 'Home', value: (r) => r.leg.home },
      { header: 'Away', value: (r) => r.leg.away },
      { header: 'Competition', value: (r) => r.leg.competition },
      { header: 'Kick-off', value: (r) => formatDateTime(r.leg.kickoff_at) },
      { header: 'Market', value: (r) => r.leg.market },
      { header: 'Pick', value: (r) => r.leg.pick },
      { header: 'Odds', value: (r) => (Number(r.leg.odds_hundredths) / 100).toFixed(2) },
      { header: 'Result', value: (r) => r.leg.result },
    ],
    rows: [settled],
  };
}

/**
 * One page of the public record's tickets, newest first (queries.publicTicketsPage says which
 * count and which stay hidden).
 */
export async function publicTickets(
  db: Queryable,
  filter: { betCategoryId?: number | undefined; from?: string | undefined; to?: string | undefined },
  page: { limit: number; offset: number },
): Promise<{ tickets: PublicTicket[]; total: number }> {
  const found = await q.publicTicketsPage(db, filter, page);
  const legs = await q.selectionsOf(
    db,
    found.tickets.map((t) => Number(t.id)),
  );
  const proofs = await q.latestProofs(
    db,
    found.tickets.map((t) => Number(t.id)),
  );
  const tickets = found.tickets.map((t): PublicTicket => {
    const own = legs.filter((l) => l.ticketId === Number(t.id));
    const proof = proofs.get(Number(t.id));
    const settlement = settleTicket(own.map((l) => ({ odds: odds(l.oddsHundredths), result: l.result })));
    return {
      id: Number(t.id),
      bet_category: t.bet_category,
      code: t.code,
      match_date: t.match_date,
      combined_odds: combinedOdds(own.map((l) => odds(l.oddsHundredths))),
      // The query lists only tickets whose every leg has a result: never pending.
      status: settlement.status === 'pending' ? 'void' : settlement.status,
      profit_units: Math.round((settlement.profit ?? 0) * 100) / 100,
      selections: own.map((l) => {
        const { id: _id, ...rest } = toSelection(l);
        return rest;
      }),
      proof: proof ? { hash: proof.hash, previous_hash: proof.prevHash, content: proof.content } : null,
    };
  });
  return { tickets, total: found.total };
}

/** A record with what it covers, for the places the business shows it to readers. */
export interface CategoryRecord {
  /** null: every category. */
  code: string | null;
  bet_category: string;
  record: TrackRecord;
}

const ALL_CATEGORIES = 'All categories';

/** Whether a bet category has this code (a record block names it). */
export async function betCategoryCodeExists(db: Queryable, code: string): Promise<boolean> {
  return (await q.betCategoryByCode(db, code)) !== null;
}

/**
 * The record of one category given by its code (null: all categories) over a range of match
 * days; null when no category has that code.
 */
export async function recordOfCategoryCode(
  db: Queryable,
  code: string | null,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<CategoryRecord | null> {
  const category = code === null ? null : await q.betCategoryByCode(db, code);
  if (code !== null && !category) return null;
  const record = await trackRecord(db, { bet_category_id: category?.id, from: range.from, to: range.to });
  return { code: category?.code ?? null, bet_category: category?.name ?? ALL_CATEGORIES, record };
}

/**
 * The record of all categories, then of each category with a counting ticket in the range (by
 * name), from one read of the legs.
 */
export async function recordsByCategory(
  db: Queryable,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<CategoryRecord[]> {
  const period = { from: range.from ?? null, to: range.to ?? null };
  const all = await recordTickets(db, { from: range.from, to: range.to });
  const byCode = new Map<string, { name: string; tickets: RecordTicketWithLegs[] }>();
  for (const ticket of all) {
    const { code, bet_category } = ticket.legRows[0]!;
    const entry = byCode.get(code) ?? { name: bet_category, tickets: [] };
    entry.tickets.push(ticket);
    byCode.set(code, entry);
  }
  const categories = [...byCode.entries()]
    .sort(([, a], [, b]) => a.name.localeCompare(b.name))
    .map(([code, c]) => ({ code, bet_category: c.name, record: computeRecord(c.tickets, period) }));
  return [{ code: null, bet_category: ALL_CATEGORIES, record: computeRecord(all, period) }, ...categories];
}

/** A bet category by id, or null. */
export async function categoryById(db: Queryable, id: number): Promise<{ id: number; name: string; code: string } | null> {
  return q.betCategoryById(db, id);
}

/** A bet category by its code (a record page's link names it), or null. */
export async function categoryByCode(db: Queryable, code: string): Promise<{ id: number; name: string; code: string } | null> {
  return q.betCategoryByCode(db, code);
}

const MINUTE = 60_000;
/** Closing odds are taken from this long before kick-off (the job runs every minute). */
const CLOSING_WINDOW_MS = 5 * MINUTE;
/** After kick-off, closing odds are still asked for this long (a missed minute, a feed briefly down). */
const CLOSING_GRACE_MS = 30 * MINUTE;
/** No 90-minute match ends sooner: a fixture is asked about only from this long after its kick-off. */
const FINISH_EARLIEST_MS = 105 * MINUTE;

type FeedJobDeps = Pick<AppDeps, 'db' | 'sportsFeed'>;

function byFixture<T extends { fixtureProvider: string; fixtureId: string }>(legs: T[]): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const leg of legs) {
    const key = fixtureKey(leg.fixtureProvider, leg.fixtureId);
    grouped.set(key, [...(grouped.get(key) ?? []), leg]);
  }
  return grouped;
}

/**
 * Closing odds (decision 070): each open fixture leg's price is taken again at kick-off, one request
 * per fixture, only for fixtures that have such legs. A 429 stops the run (the feed backs off).
 */
export async function takeClosingOdds(deps: FeedJobDeps, now = Date.now()): Promise<{ taken: number }> {
  if (!deps.sportsFeed) return { taken: 0 };
  const due = (await q.openFixtureLegs(deps.db, new Date(now + CLOSING_WINDOW_MS))).filter(
    (l) => l.closingOddsHundredths === null && new Date(l.kickoffAt).getTime() > now - CLOSING_GRACE_MS,
  );
  let taken = 0;
  for (const legs of byFixture(due).values()) {
    const { fixtureProvider, fixtureId } = legs[0]!;
    const prices = await takePrices(deps, fixtureProvider, fixtureId, legs.map((l) => ({ market: l.market, selection: l.pick })));
    if (prices === null) break;
    for (const [i, leg] of legs.entries()) {
      const price = prices[i];
      if (!price) continue;
      await q.setClosingOdds(deps.db, leg.id, price.oddsHundredths);
      taken += 1;
    }
  }
  return { taken };
}

/**
 * Results proposed by the feed (decision 070): fixtures with open legs that kicked off at least
 * 105 minutes ago are asked about (20 to a request); a finished one proposes each leg's result from
 * its 90-minute score, a postponed, abandoned or cancelled one proposes void once its clock ran out.
 * Staff confirm on Enter Results; nothing is entered here.
 */
export async function proposeFeedResults(deps: FeedJobDeps, now = Date.now()): Promise<{ proposed: number }> {
  if (!deps.sportsFeed) return { proposed: 0 };
  if (!(await takeLease(deps.db, 'feed-results', 300))) return { proposed: 0 };
  try {
    const open = (await q.openFixtureLegs(deps.db, new Date(now))).filter((l) => l.proposedResult === null);
    const settings = await getSettings(deps.db, ['feed_void_postponed_hours', 'feed_void_abandoned_hours', 'feed_void_cancelled_hours']);
    const clocks = {
      postponedHours: settings.feed_void_postponed_hours,
      abandonedHours: settings.feed_void_abandoned_hours,
      cancelledHours: settings.feed_void_cancelled_hours,
    };
    let proposed = 0;
    for (const provider of new Set(open.map((l) => l.fixtureProvider))) {
      const legs = open.filter((l) => l.fixtureProvider === provider);
      const ask = [...new Set(legs.filter((l) => new Date(l.kickoffAt).getTime() <= now - FINISH_EARLIEST_MS).map((l) => l.fixtureId))];
      const known = new Map((await refreshFixtures(deps, provider, ask)).map((f) => [f.externalId, f]));
      // Fixtures not asked about (kicked off lately) still have their stored state: a postponement the sync saw.
      const rest = [...new Set(legs.map((l) => l.fixtureId))].filter((id) => !known.has(id));
      for (const f of await storedFixtures(deps.db, provider, rest)) known.set(f.externalId, f);
      for (const leg of legs) {
        const fixture = known.get(leg.fixtureId);
        if (!fixture) continue;
        const proposal = proposeResult(leg, fixture, clocks, now);
        if (!proposal) continue;
        await q.setProposal(deps.db, leg.id, proposal.result, proposal.basis);
        proposed += 1;
      }
    }
    return { proposed };
  } finally {
    await releaseLease(deps.db, 'feed-results');
  }
}
