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
import type { Db, Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import type { CsvTable } from '../../http/csv.ts';
import { conflict, fieldError, forbidden, invalid, type FieldErrors } from '../../http/errors.ts';
import { audit, byStaff } from '../audit/service.ts';
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

/**
 * Stores a category's ticket of a day. It replaces the day's ticket until its first leg kicks off;
 * from then on the ticket is fixed (409 naming the leg), so its place in the record cannot change.
 * New legs are a new publication: the ticket counts in the record only when that comes before its
 * first kick-off. Legs stored again unchanged keep their ids.
 */
export async function storeTicket(
  db: Db,
  actor: Actor,
  input: z.output<typeof TicketInput>,
  requestId: string,
): Promise<{ message: string; ticket: Ticket }> {
  return db.transaction(async (tx) => {
    if (!(await q.betCategoryExists(tx, input.bet_category_id))) {
      throw fieldError('bet_category_id', refusalTexts.betCategoryNotFound);
    }
    const now = Date.now();
    const wanted: q.StoredSelection[] = input.selections.map((s) => ({
      home: s.home,
      away: s.away,
      competition: s.competition,
      kickoffAt: new Date(s.kickoff),
      market: s.market,
      pick: s.pick,
      oddsHundredths: Math.round(s.odds * 100),
    }));
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
    await audit(tx, existing ? 'tip-ticket.replace' : 'tip-ticket.create', ticketId, byStaff(actor, requestId), {
      before: existing ? { selections: before.map(toSelection) } : null,
      after: { selections: ticket.selections, published_at: ticket.published_at },
    });
    return { message: `Ticket of ${input.match_date} saved`, ticket };
  });
}

export async function awaitingResults(db: Queryable): Promise<AwaitingSelection[]> {
  return (await q.awaitingSelections(db)).map((s) => ({
    ...toSelection(s),
    ticket_id: s.ticketId,
    bet_category: s.betCategory,
    code: s.code,
    match_date: s.matchDate,
  }));
}

/**
 * Enters results of legs that kicked off. A leg that already has another result is a correction:
 * admins only, audited with the result before and after.
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
      if (leg.result === r.result) continue;
      const correction = leg.result !== null;
      if (correction && !can(actor.role, 'correct:tip-results')) {
        throw forbidden(`${name(leg)} already has a result: only an admin can correct it`);
      }
      await q.setResult(tx, leg.id, r.result, actor.userId);
      await audit(tx, correction ? 'tip-result.correct' : 'tip-result.enter', leg.id, byStaff(actor, requestId), {
        before: { result: leg.result },
        after: { result: r.result },
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
    const legs = t.legRows.map((l) => ({ odds: odds(Number(l.odds_hundredths)), result: l.result }));
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
  const tickets = found.tickets.map((t): PublicTicket => {
    const own = legs.filter((l) => l.ticketId === Number(t.id));
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
