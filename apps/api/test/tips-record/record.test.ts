import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { rows } from '../../src/db/rows.ts';
import { auditLog } from '../../src/db/schema/index.ts';
import { recordLegsQuery } from '../../src/modules/tips-record/queries.ts';
import { explain, type TestApp } from '../helpers.ts';
import { tipsApp, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp, ref: TipsReference, admin: string, staff: string;

const HOUR = 3_600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

interface Leg {
  home: string;
  away: string;
  odds: number;
  kickoff?: string;
  market?: string;
  pick?: string;
}
const leg = (l: Leg) => ({
  competition: 'Premier League',
  market: 'Over 1.5',
  pick: 'Over 1.5',
  kickoff: inHours(1),
  ...l,
});

const store = (token: string, betCategoryId: number, matchDate: string, legs: Leg[]) =>
  t.as(token, {
    method: 'POST',
    url: '/api/tips/tickets/store',
    payload: { bet_category_id: betCategoryId, match_date: matchDate, selections: legs.map(leg) },
  });

const results = (token: string, list: { selection_id: number; result: string }[]) =>
  t.as(token, { method: 'POST', url: '/api/tips/tickets/results', payload: { results: list } });

/** Time passes: the ticket's kick-offs and its publication move `hours` into the past. */
async function hoursPass(ticketId: number, hours: number) {
  const shift = sql`make_interval(hours => ${hours})`;
  await t.deps.db.execute(sql`update tip_selections set kickoff_at = kickoff_at - ${shift} where ticket_id = ${ticketId}`);
  await t.deps.db.execute(
    sql`update tip_tickets set published_at = published_at - ${shift}, first_kickoff_at = first_kickoff_at - ${shift} where id = ${ticketId}`,
  );
}

const record = async (token: string, query: string) => {
  const res = await t.as(token, { method: 'GET', url: `/api/tips/record?${query}` });
  expect(res.statusCode).toBe(200);
  return res.json();
};

type Ticket = { id: number; selections: { id: number }[] };
/** Stores a ticket, lets its kick-offs pass and enters `outcome` for each leg. */
async function played(betCategoryId: number, matchDate: string, legs: Leg[], outcome: string[]): Promise<Ticket> {
  const res = await store(staff, betCategoryId, matchDate, legs);
  expect(res.statusCode).toBe(200);
  const ticket = res.json().ticket as Ticket;
  await hoursPass(ticket.id, 2);
  const entered = await results(
    staff,
    outcome.map((result, i) => ({ selection_id: ticket.selections[i]!.id, result })),
  );
  expect(entered.statusCode).toBe(200);
  return ticket;
}

beforeAll(async () => {
  ({ t, ref, admin, staff } = await tipsApp());
});
afterAll(() => t.close());

describe('storing a ticket', () => {
  it('refuses odds of 1.00 or less, a missing kick-off and no selections, naming the field', async () => {
    const low = await store(staff, ref.d2, '2026-11-10', [{ home: 'Arsenal', away: 'Chelsea', odds: 1 }]);
    expect(low.statusCode).toBe(422);
    expect(low.json().errors).toHaveProperty(['selections.0.odds']);
    const noKickoff = await t.as(staff, {
      method: 'POST',
      url: '/api/tips/tickets/store',
      payload: { bet_category_id: ref.d2, match_date: '2026-11-10', selections: [{ ...leg({ home: 'A', away: 'B', odds: 1.5 }), kickoff: '' }] },
    });
    expect(noKickoff.statusCode).toBe(422);
    expect(noKickoff.json().errors).toMatchObject({ 'selections.0.kickoff': ['Enter the kick-off'] });
    const none = await store(staff, ref.d2, '2026-11-10', []);
    expect(none.json().errors).toEqual({ selections: ['Add at least one selection'] });
    const unknown = await store(staff, 9999, '2026-11-10', [{ home: 'A', away: 'B', odds: 1.5 }]);
    expect(unknown.json().errors).toEqual({ bet_category_id: ['This bet category does not exist'] });
  });

  it('answers the ticket with its combined odds, pending, and its publication time', async () => {
    const res = await store(staff, ref.d2, '2026-11-10', [
      { home: 'Arsenal', away: 'Chelsea', odds: 1.35 },
      { home: 'Milan', away: 'Roma', odds: 1.52, market: '1X2', pick: '1' },
    ]);
    expect(res.statusCode).toBe(200);
    const { ticket } = res.json();
    expect(ticket).toMatchObject({ bet_category_id: ref.d2, code: 'D2', match_date: '2026-11-10', combined_odds: 2.05, status: 'pending', counts: true, profit_units: null });
    expect(ticket.selections.map((s: { odds: number; result: null }) => [s.odds, s.result])).toEqual([[1.35, null], [1.52, null]]);
    expect(Date.now() - Date.parse(ticket.published_at)).toBeLessThan(60_000);
  });

  it("replaces the day's ticket while it has no result, and keeps the publication when nothing changed", async () => {
    const replaced = await store(staff, ref.d2, '2026-11-10', [{ home: 'Leeds', away: 'Everton', odds: 1.6, kickoff: '2030-01-01T19:45' }]);
    const { ticket } = replaced.json();
    expect(ticket.selections).toHaveLength(1);
    // A kick-off without an offset is Nairobi time.
    expect(ticket.selections[0].kickoff).toBe('2030-01-01T16:45:00.000Z');
    const list = await t.as(staff, { method: 'GET', url: `/api/tips/tickets?bet_category_id=${ref.d2}&from=2026-11-10&to=2026-11-10` });
    expect(list.json().total_records).toBe(1);
    const again = await store(admin, ref.d2, '2026-11-10', [{ home: 'Leeds', away: 'Everton', odds: 1.6, kickoff: '2030-01-01T19:45' }]);
    expect(again.json().message).toBe('The ticket did not change');
    expect(again.json().ticket.published_at).toBe(ticket.published_at);
  });

  it('locks a selection once its kick-off has passed, naming it (409)', async () => {
    const res = await store(staff, ref.o15, '2026-11-11', [{ home: 'Arsenal', away: 'Chelsea', odds: 1.3 }]);
    const ticket = res.json().ticket;
    await hoursPass(ticket.id, 2);
    const changed = await store(staff, ref.o15, '2026-11-11', [{ home: 'Arsenal', away: 'Chelsea', odds: 1.5 }]);
    expect(changed.statusCode).toBe(409);
    expect(changed.json().info).toMatch(/^Arsenal-Chelsea kicked off at .*: it can no longer be changed or removed$/);
    const removed = await store(staff, ref.o15, '2026-11-11', [{ home: 'Spurs', away: 'Fulham', odds: 1.3, kickoff: inHours(3) }]);
    expect(removed.statusCode).toBe(409);
    const added = await store(staff, ref.o15, '2026-11-12', [{ home: 'Spurs', away: 'Fulham', odds: 1.3, kickoff: inHours(-1) }]);
    expect(added.statusCode).toBe(409);
    expect(added.json().info).toMatch(/^Spurs-Fulham kicked off at .*: it can no longer be added$/);
  });

  it('refuses anonymous callers', async () => {
    const anonymous = await t.as(null, { method: 'GET', url: '/api/tips/record' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('results and the record', () => {
  let halfWon: Ticket;
  let pending: Ticket;

  beforeAll(async () => {
    await t.deps.db.execute(sql`delete from tip_tickets`);
    await played(ref.d2, '2026-11-01', [{ home: 'Arsenal', away: 'Chelsea', odds: 1.35 }, { home: 'Milan', away: 'Roma', odds: 1.52 }], ['won', 'won']);
    await played(ref.d2, '2026-11-02', [{ home: 'Leeds', away: 'Everton', odds: 1.8 }], ['lost']);
    await played(ref.d2, '2026-11-03', [{ home: 'Napoli', away: 'Lazio', odds: 1.5 }, { home: 'Porto', away: 'Braga', odds: 2 }], ['won', 'void']);
    halfWon = await played(ref.d2, '2026-11-04', [{ home: 'Ajax', away: 'PSV', odds: 1.8, market: 'AH -0.25', pick: 'Ajax' }], ['half_won']);
    await played(ref.o15, '2026-11-02', [{ home: 'Celtic', away: 'Rangers', odds: 1.4 }], ['won']);
    const res = await store(staff, ref.d2, '2026-11-05', [
      { home: 'Lyon', away: 'Nice', odds: 1.5, kickoff: inHours(1) },
      { home: 'Lens', away: 'Lille', odds: 1.5, kickoff: inHours(5) },
    ]);
    pending = res.json().ticket;
    await hoursPass(pending.id, 2);
  });

  it('lists the kicked-off selections without a result, oldest first', async () => {
    const res = await t.as(staff, { method: 'GET', url: '/api/tips/tickets/awaiting-results' });
    expect(res.statusCode).toBe(200);
    const awaiting = res.json().selections;
    expect(awaiting.map((s: { home: string }) => s.home)).toEqual(['Lyon']);
    expect(awaiting[0]).toMatchObject({ ticket_id: pending.id, code: 'D2', match_date: '2026-11-05', result: null });
  });

  it('refuses a result before the kick-off, naming the field', async () => {
    const early = await results(staff, [{ selection_id: pending.selections[1]!.id, result: 'won' }]);
    expect(early.statusCode).toBe(422);
    expect(early.json().errors).toEqual({ 'results.0.result': ['Lens-Lille has not kicked off yet'] });
    const bad = await results(staff, [{ selection_id: pending.selections[0]!.id, result: 'draw' }]);
    expect(bad.json().errors).toHaveProperty(['results.0.result']);
    const entered = await results(staff, [{ selection_id: pending.selections[0]!.id, result: 'won' }]);
    expect(entered.json()).toMatchObject({ entered: 1, corrected: 0 });
  });

  it('computes the record of a category from the results, a ticket with a pending leg counted as pending', async () => {
    // W 2.052-1, L -1, W (void leg) +0.50, W (half won 1.80) +0.40: 0.952 over 4 units
    expect(await record(staff, `bet_category_id=${ref.d2}&from=2026-11-01&to=2026-11-30`)).toMatchObject({
      tickets: 5,
      settled: 4,
      won: 3,
      lost: 1,
      void: 0,
      pending: 1,
      hit_rate: 75,
      average_odds: 2.16,
      profit_units: 0.95,
      roi: 23.8,
      longest_win_streak: 2,
      longest_losing_streak: 1,
      current_streak: 2,
      from: '2026-11-01',
      to: '2026-11-30',
    });
  });

  it('lets only an admin correct an entered result, audited before and after; the record follows', async () => {
    const byStaff = await results(staff, [{ selection_id: halfWon.selections[0]!.id, result: 'lost' }]);
    expect(byStaff.statusCode).toBe(403);
    expect(byStaff.json().info).toBe('Ajax-PSV already has a result: only an admin can correct it');
    const byAdmin = await results(admin, [{ selection_id: halfWon.selections[0]!.id, result: 'lost' }]);
    expect(byAdmin.json()).toMatchObject({ entered: 0, corrected: 1, message: '0 results entered, 1 corrected' });
    const [trail] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'tip-result.correct')).orderBy(desc(auditLog.id));
    expect(trail).toMatchObject({ entity: 'tip_selection', before: { result: 'half_won' }, after: { result: 'lost' } });
    // 1.052 - 1 + 0.5 - 1 = -0.448 over 4 units
    expect(await record(admin, `bet_category_id=${ref.d2}`)).toMatchObject({
      won: 2,
      lost: 2,
      hit_rate: 50,
      profit_units: -0.45,
      roi: -11.2,
      current_streak: -1,
      from: null,
      to: null,
    });
  });

  it('covers a range of match dates and all categories', async () => {
    expect(await record(staff, `bet_category_id=${ref.d2}&from=2026-11-03&to=2026-11-04`)).toMatchObject({
      tickets: 2,
      won: 1,
      lost: 1,
      profit_units: -0.5,
      profit_curve: [
        { match_date: '2026-11-03', profit_units: 0.5 },
        { match_date: '2026-11-04', profit_units: -0.5 },
      ],
    });
    // D2 -0.448 and O15 +0.40
    expect(await record(staff, 'from=2026-11-01&to=2026-11-30')).toMatchObject({ tickets: 6, settled: 5, won: 3, lost: 2, profit_units: -0.05, roi: -1 });
    const bad = await t.as(staff, { method: 'GET', url: '/api/tips/record?from=2026-11-30&to=2026-11-01' });
    expect(bad.json().errors).toHaveProperty('to');
  });

  it('fixes a ticket in the record once a leg has kicked off: a later leg is refused, naming the leg (409)', async () => {
    const first = await store(staff, ref.o15, '2026-11-06', [{ home: 'Inter', away: 'Genoa', odds: 1.5 }]);
    const ticketId = first.json().ticket.id;
    await hoursPass(ticketId, 2);
    const kickedOff = new Date(Date.parse(first.json().ticket.selections[0].kickoff) - 2 * HOUR).toISOString();
    const late = await store(staff, ref.o15, '2026-11-06', [
      { home: 'Inter', away: 'Genoa', odds: 1.5, kickoff: kickedOff },
      { home: 'Roma', away: 'Lecce', odds: 2, kickoff: inHours(1) },
    ]);
    expect(late.statusCode).toBe(409);
    expect(late.json().info).toMatch(/^Inter-Genoa kicked off at .*: the ticket is fixed in the record/);
    const [stored] = await rows<{ n: number }>(t.deps.db, sql`select count(*)::int as n from tip_selections where ticket_id = ${ticketId}`);
    expect(Number(stored!.n)).toBe(1);
    const legs = first.json().ticket.selections as { id: number }[];
    await results(staff, legs.map((l) => ({ selection_id: l.id, result: 'lost' })));
    // The losing ticket stays in the record.
    expect(await record(staff, `bet_category_id=${ref.o15}&from=2026-11-06&to=2026-11-06`)).toMatchObject({ tickets: 1, lost: 1, profit_units: -1 });
  });

  it('keeps the id of a leg stored again unchanged, so a results list read before stays valid', async () => {
    const first = await store(staff, ref.o15, '2026-11-07', [
      { home: 'Lazio', away: 'Torino', odds: 1.6, kickoff: inHours(3) },
      { home: 'Milan', away: 'Como', odds: 1.4, kickoff: inHours(4) },
    ]);
    const [lazio, milan] = first.json().ticket.selections as { id: number }[];
    const again = await store(staff, ref.o15, '2026-11-07', [
      { home: 'Napoli', away: 'Parma', odds: 1.3, kickoff: inHours(2) },
      { home: 'Milan', away: 'Como', odds: 1.4, kickoff: first.json().ticket.selections[1].kickoff },
    ]);
    expect(again.statusCode).toBe(200);
    const legs = again.json().ticket.selections as { id: number; home: string }[];
    expect(legs.map((l) => l.home)).toEqual(['Napoli', 'Milan']);
    expect(legs[1]!.id).toBe(milan!.id);
    expect(legs[0]!.id).not.toBe(lazio!.id);

    await hoursPass(first.json().ticket.id, 5);
    const stale = await results(staff, [
      { selection_id: milan!.id, result: 'won' },
      { selection_id: lazio!.id, result: 'won' },
    ]);
    expect(stale.statusCode).toBe(422);
    expect(stale.json().info).toContain(`selection ${lazio!.id} no longer exists`);
    expect(stale.json().errors['results.1.selection_id'][0]).toContain(`Selection ${lazio!.id} is no longer on any ticket`);
    expect(stale.json().errors['results.0.selection_id']).toBeUndefined();
    // None of the batch was applied, the valid leg included.
    const [milanNow] = await rows<{ result: string | null }>(t.deps.db, sql`select result from tip_selections where id = ${milan!.id}`);
    expect(milanNow!.result).toBeNull();
  });

  it('refuses to replace a ticket that has results', async () => {
    const res = await store(staff, ref.d2, '2026-11-02', [{ home: 'X', away: 'Y', odds: 2, kickoff: inHours(4) }]);
    expect(res.statusCode).toBe(409);
    expect(res.json().info).toBe('The ticket of 2026-11-02 already has results: it can no longer be replaced');
  });

  it('lists tickets with legs, combined odds and status', async () => {
    const res = await t.as(staff, { method: 'GET', url: `/api/tips/tickets?bet_category_id=${ref.d2}&perPage=50` });
    expect(res.json().total_records).toBe(5);
    const tickets = res.json().tickets as { match_date: string; status: string; combined_odds: number; profit_units: number | null }[];
    expect(tickets.map((x) => [x.match_date, x.status, x.combined_odds, x.profit_units])).toEqual([
      ['2026-11-05', 'pending', 2.25, null],
      ['2026-11-04', 'lost', 1.8, -1],
      ['2026-11-03', 'won', 3, 0.5],
      ['2026-11-02', 'lost', 1.8, -1],
      ['2026-11-01', 'won', 2.05, 1.05],
    ]);
  });

  it('exports every settled ticket with its legs as CSV', async () => {
    const res = await t.as(staff, { method: 'GET', url: `/api/tips/record/export?bet_category_id=${ref.d2}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Ticket,Bet category,Match date,Published,Combined odds,Ticket result,Profit (units),Home,Away,Competition,Kick-off,Market,Pick,Odds,Result',
    );
    // 4 settled tickets with 2 + 1 + 2 + 1 legs; the pending one is left out
    expect(lines).toHaveLength(7);
    expect(lines[1]).toContain('Daily 2 Odds,2026-11-01');
    expect(lines[1]).toContain('2.05,won,1.05,Arsenal,Chelsea,Premier League');
    expect(lines.some((l) => l.includes('Lyon'))).toBe(false);
    // A loss is the number -1.00, not text a spreadsheet cannot add up.
    expect(lines.filter((l) => l.includes(',lost,-1.00,'))).toHaveLength(2);
    expect(res.body).not.toContain("'-");
  });

  it("shows the day's tickets of its bets in a post that attaches them", async () => {
    const post = await t.as(staff, {
      method: 'POST',
      url: '/api/tips/posts/add',
      payload: {
        title: 'Sunday double',
        post_category_id: ref.football,
        match_date: '2026-11-01',
        selected_bets: [ref.d2, ref.o15],
        content: '<p>Our double of the day.</p>',
        attach_ticket: true,
      },
    });
    expect(post.statusCode).toBe(200);
    const view = await t.as(staff, { method: 'GET', url: `/api/tips/posts/view?id=${post.json().post.id}` });
    expect(view.json().post.attach_ticket).toBe(true);
    // D2 has a ticket that day, O15 none.
    expect(view.json().tickets.map((x: { code: string; combined_odds: number; status: string }) => [x.code, x.combined_odds, x.status])).toEqual([
      ['D2', 2.05, 'won'],
    ]);
  });

  it('reads the record of one category through its index', async () => {
    await t.deps.db.transaction(async (tx) => {
      // A test table is tiny: forbid the whole-table scan so the plan shows which index serves.
      await tx.execute(sql`set local enable_seqscan = off`);
      const plan = await explain(recordLegsQuery({ betCategoryId: ref.d2, from: '2026-11-01', to: '2026-11-30' }), tx);
      expect(plan.indexes).toEqual(expect.arrayContaining(['tip_tickets_category_day_idx', 'tip_selections_ticket_idx']));
      expect(plan.seqScans).toEqual([]);
    });
  });
});
