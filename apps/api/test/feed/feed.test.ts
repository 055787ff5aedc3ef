import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { auditLog } from '../../src/db/schema/index.ts';
import { apiFootballFeed } from '../../src/integrations/sports-feed/api-football.ts';
import { startFakeApiFootball, type FakeApiFootball } from '../../src/integrations/sports-feed/fake-api-football.ts';
import { syncFixtures } from '../../src/modules/feed/service.ts';
import { proposeFeedResults, takeClosingOdds } from '../../src/modules/tips-record/service.ts';
import { searchFixturesQuery } from '../../src/modules/feed/queries.ts';
import { explain, type TestApp } from '../helpers.ts';
import { tipsApp, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp, ref: TipsReference, admin: string, staff: string, fake: FakeApiFootball;

const HOUR = 3_600_000;
const METRICS_TOKEN = 'metrics-token-0123456789';
const metrics = async () => (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
const inHours = (h: number) => new Date(Date.now() + h * HOUR);
const store = (token: string, betCategoryId: number, matchDate: string, selections: Record<string, unknown>[]) =>
  t.as(token, { method: 'POST', url: '/api/tips/tickets/store', payload: { bet_category_id: betCategoryId, match_date: matchDate, selections } });
const setting = (key: string, value: unknown) => t.as(admin, { method: 'POST', url: '/api/settings/update', payload: { key, value } });
const fixtureLeg = (id: number, market: string, selection: string, odds?: number) => ({
  fixture: { provider: 'api-football', id: String(id) },
  market,
  selection,
  ...(odds === undefined ? {} : { odds }),
});
const results = (token: string, list: Record<string, unknown>[]) =>
  t.as(token, { method: 'POST', url: '/api/tips/tickets/results', payload: { results: list } });

/** The leg's match kicked off `hours` ago (its ticket was published before that). */
async function kickedOff(ticketId: number, hours: number) {
  const shift = sql`make_interval(hours => ${hours})`;
  await t.deps.db.execute(sql`update tip_selections set kickoff_at = now() - ${shift} where ticket_id = ${ticketId}`);
  await t.deps.db.execute(sql`update tip_tickets set published_at = now() - ${shift} - interval '1 hour', first_kickoff_at = now() - ${shift} where id = ${ticketId}`);
}

beforeAll(async () => {
  ({ t, ref, admin, staff } = await tipsApp({ env: { METRICS_TOKEN } }));
  fake = await startFakeApiFootball();
  fake.addFixture({ id: 101, home: 'Arsenal', away: 'Chelsea', kickoffAt: inHours(3), odds: { home: 2.0, draw: 3.4, away: 3.8, over25: 1.8 } });
  fake.addFixture({ id: 102, home: 'Liverpool', away: 'Everton', kickoffAt: inHours(4), odds: { home: 1.5, draw: 4.2, away: 6 } });
  fake.addFixture({ id: 103, home: 'Real Madrid', away: 'Sevilla', kickoffAt: inHours(5), league: { id: 140, name: 'La Liga', country: 'Spain' } });
  fake.addFixture({ id: 104, home: 'Boca Juniors', away: 'River Plate', kickoffAt: inHours(5), league: { id: 128, name: 'Liga Profesional', country: 'Argentina' } });
  fake.addFixture({ id: 105, home: 'Milan', away: 'Roma', kickoffAt: inHours(6), league: { id: 135, name: 'Serie A', country: 'Italy' } });
  fake.addFixture({ id: 106, home: 'Inter', away: 'Juventus', kickoffAt: inHours(6), league: { id: 135, name: 'Serie A', country: 'Italy' } });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('without a feed configured', () => {
  it('finds no fixture and stores typed legs as today, marked not verified', async () => {
    const found = await t.as(staff, { method: 'GET', url: '/api/feed/fixtures?search=arsenal' });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({ fixtures: [] });
    const state = await t.as(staff, { method: 'GET', url: '/api/feed/state' });
    expect(state.json()).toMatchObject({ provider: null, requests_remaining_day: null, fixtures: 0 });
    const res = await store(staff, ref.o15, '2030-01-05', [
      { home: 'Leeds', away: 'Everton', competition: 'Championship', kickoff: inHours(30).toISOString(), market: 'Over 1.5', pick: 'Over 1.5', odds: 1.4 },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().ticket.selections[0]).toMatchObject({ odds: 1.4, odds_source: 'typed', odds_captured_at: null, verified: false, fixture: null, closing_odds: null, clv: null });
  });

  it('refuses a fixture leg naming the fixture: there is no feed to resolve it', async () => {
    const res = await store(staff, ref.o15, '2030-01-06', [fixtureLeg(101, '1X2', '1')]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty(['selections.0.fixture']);
  });
});

describe('the fixtures of the followed leagues, kept locally', () => {
  beforeAll(() => {
    t.deps.sportsFeed = apiFootballFeed({ baseUrl: fake.url, apiKey: fake.apiKey });
  });

  it('syncs the followed leagues only, one request per league, and records the quota the answer reported', async () => {
    const before = fake.requests.length;
    const res = await t.as(admin, { method: 'POST', url: '/api/feed/fixtures/sync' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ fixtures: 5 });
    expect(fake.requests.slice(before).map((r) => r.params.league).sort()).toEqual(['135', '140', '39']);
    const state = (await t.as(staff, { method: 'GET', url: '/api/feed/state' })).json();
    expect(state).toMatchObject({ provider: 'api-football', fixtures: 5, requests_remaining_day: fake.dailyRemaining, requests_remaining_minute: 299 });
    expect(state.last_sync_at).not.toBeNull();
  });

  it('searches the local copy by team, league and day without asking the provider', async () => {
    const before = fake.requests.length;
    const byName = (await t.as(staff, { method: 'GET', url: '/api/feed/fixtures?search=ARSEN' })).json();
    expect(byName.fixtures).toEqual([
      { id: '101', provider: 'api-football', home: 'Arsenal', away: 'Chelsea', competition: 'Premier League (England)', kickoff_at: expect.any(String), status: 'scheduled' },
    ]);
    const byLeague = (await t.as(staff, { method: 'GET', url: '/api/feed/fixtures?league=135' })).json();
    expect(byLeague.fixtures.map((f: { home: string }) => f.home)).toEqual(['Milan', 'Inter']);
    const otherDay = (await t.as(staff, { method: 'GET', url: '/api/feed/fixtures?date=2031-01-01' })).json();
    expect(otherDay.fixtures).toEqual([]);
    expect(fake.requests.length).toBe(before);
    const bad = await t.as(staff, { method: 'GET', url: '/api/feed/fixtures?league=premier' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty(['league']);
  });

  it('searches a team name through the trigram index and a day through the kick-off index', async () => {
    await t.deps.db.transaction(async (tx) => {
      // A test table is tiny: forbid the whole-table scan so the plan shows which index serves.
      await tx.execute(sql`set local enable_seqscan = off`);
      const byName = await explain(searchFixturesQuery(tx, { search: 'arsen' }, 50).getSQL(), tx);
      expect(byName.indexes).toContain('feed_fixtures_search_trgm_idx');
      const byDay = await explain(searchFixturesQuery(tx, { from: inHours(0), to: inHours(24) }, 50).getSQL(), tx);
      expect(byDay.indexes).toContain('feed_fixtures_kickoff_idx');
      expect([...byName.seqScans, ...byDay.seqScans]).toEqual([]);
    });
  });
});

describe('publishing fixture legs', () => {
  it("takes teams, competition and kick-off from the feed and the median price when no odds are typed", async () => {
    const res = await store(staff, ref.d2, '2030-02-01', [fixtureLeg(101, '1X2', '1'), fixtureLeg(102, 'Total goals', 'Over 2.5')]);
    expect(res.statusCode).toBe(200);
    const [a, b] = res.json().ticket.selections;
    // Bet365 2.00, 1xBet 2.06, Unibet 1.96: the median is 2.00.
    expect(a).toMatchObject({ home: 'Arsenal', away: 'Chelsea', competition: 'Premier League (England)', market: '1X2', pick: '1', odds: 2, odds_source: 'feed:median', verified: true, fixture: { provider: 'api-football', id: '101' } });
    expect(a.odds_captured_at).not.toBeNull();
    expect(a.kickoff).toBe(new Date(fake.fixtures.get(101)!.fixture.date).toISOString());
    expect(b).toMatchObject({ home: 'Liverpool', pick: 'Over 2.5', odds: 1.9, verified: true });
  });

  it("takes the named bookmaker's price when the setting names one", async () => {
    expect((await setting('feed_odds_bookmaker', '1xBet')).statusCode).toBe(200);
    const res = await store(staff, ref.d2, '2030-02-02', [fixtureLeg(101, '1X2', '1')]);
    expect(res.json().ticket.selections[0]).toMatchObject({ odds: 2.06, odds_source: 'feed:1xBet', verified: true });
    await setting('feed_odds_bookmaker', '');
  });

  it('keeps a typed price within 5 % of the feed and refuses one above it, naming the odds', async () => {
    const within = await store(staff, ref.d2, '2030-02-03', [fixtureLeg(101, '1X2', '1', 2.1)]);
    expect(within.json().ticket.selections[0]).toMatchObject({ odds: 2.1, odds_source: 'typed', verified: true });
    const above = await store(staff, ref.d2, '2030-02-04', [fixtureLeg(101, '1X2', '1', 2.5)]);
    expect(above.statusCode).toBe(422);
    expect(above.json().errors['selections.0.odds']).toEqual(["2.50 is more than 5% above the feed's median price of 2.00"]);
  });

  it('keeps a price too far above the feed as unverified when the business says so', async () => {
    await setting('feed_odds_refuse_above', false);
    const res = await store(staff, ref.d2, '2030-02-05', [fixtureLeg(101, '1X2', '1', 2.5)]);
    expect(res.statusCode).toBe(200);
    expect(res.json().ticket.selections[0]).toMatchObject({ odds: 2.5, odds_source: 'typed', verified: false });
    await setting('feed_odds_refuse_above', true);
  });

  it('keeps a leg stored again unchanged although the price moved since', async () => {
    const first = (await store(staff, ref.o15, '2030-02-06', [fixtureLeg(102, '1X2', '1')])).json().ticket;
    fake.moveOdds(102, 1.1);
    const again = await store(staff, ref.o15, '2030-02-06', [fixtureLeg(102, '1X2', '1')]);
    expect(again.json().message).toBe('The ticket did not change');
    expect(again.json().ticket.selections[0]).toMatchObject({ id: first.selections[0].id, odds: first.selections[0].odds });
  });

  it('publishes with the feed down: typed odds kept unverified, a leg without odds refused', async () => {
    fake.down = true;
    try {
      const typed = await store(staff, ref.o15, '2030-02-07', [fixtureLeg(103, '1X2', '1', 1.45)]);
      expect(typed.statusCode).toBe(200);
      expect(typed.json().ticket.selections[0]).toMatchObject({ home: 'Real Madrid', odds: 1.45, verified: false, odds_captured_at: null });
      const bare = await store(staff, ref.o15, '2030-02-08', [fixtureLeg(103, '1X2', '1')]);
      expect(bare.statusCode).toBe(422);
      expect(bare.json().errors['selections.0.odds']).toEqual(['The feed gives no price for this pick now: enter the odds']);
    } finally {
      fake.down = false;
    }
  });

  it('backs off after a 429 and asks nothing until the back-off ends', async () => {
    fake.rateLimitNext(1);
    const limited = await store(staff, ref.o15, '2030-02-09', [fixtureLeg(105, '1X2', 'X', 3.3)]);
    expect(limited.json().ticket.selections[0]).toMatchObject({ verified: false });
    const state = (await t.as(staff, { method: 'GET', url: '/api/feed/state' })).json();
    expect(state.backing_off_until).not.toBeNull();
    expect(await metrics()).toContain('\nbetdesk_feed_backing_off 1\n');
    const asked = fake.requests.length;
    await store(staff, ref.o15, '2030-02-10', [fixtureLeg(105, '1X2', 'X', 3.3)]);
    expect(fake.requests.length).toBe(asked);
    await t.deps.db.execute(sql`update feed_quota set backoff_until = now() - interval '1 second'`);
    const after = await metrics();
    expect(after).toContain('\nbetdesk_feed_backing_off 0\n');
    // The quota the last answer reported, as on the Settings screen.
    expect(after).toMatch(new RegExp(`\\nbetdesk_feed_requests_remaining\\{window="day"\\} ${state.requests_remaining_day}\\n`));
  });
});

describe('results proposed by the feed', () => {
  it('proposes results from the 90-minute score, never counting extra time, and leaves unknown markets to staff', async () => {
    const ticket = (
      await store(staff, ref.d2, '2030-03-01', [
        fixtureLeg(105, '1X2', 'X'),
        fixtureLeg(105, 'Total goals', 'Over 2.5'),
        fixtureLeg(105, 'Correct score', '1-1', 7),
      ])
    ).json().ticket;
    // 1-1 after 90 minutes, 2-1 after extra time: the draw won, over 2.5 lost.
    fake.setStatus(105, 'AET', { halftime: { home: 0, away: 1 }, fulltime: { home: 1, away: 1 }, extratime: { home: 1, away: 0 } });
    await kickedOff(ticket.id, 3);
    expect(await proposeFeedResults(t.deps)).toEqual({ proposed: 2 });
    const proposed = (await t.as(staff, { method: 'GET', url: '/api/tips/tickets/proposed-results' })).json().selections;
    expect(proposed.map((s: { pick: string; proposed_result: string; proposal_basis: string }) => [s.pick, s.proposed_result, s.proposal_basis])).toEqual([
      ['X', 'won', '90-minute score 1-1 (extra time not counted)'],
      ['Over 2.5', 'lost', '90-minute score 1-1 (extra time not counted)'],
    ]);
    const awaiting = (await t.as(staff, { method: 'GET', url: '/api/tips/tickets/awaiting-results' })).json().selections;
    expect(awaiting.find((s: { pick: string }) => s.pick === '1-1')).toMatchObject({ proposed_result: null });

    const confirmed = await results(staff, proposed.map((s: { id: number }) => ({ selection_id: s.id, confirm_feed: true })));
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ entered: 2, corrected: 0 });
    const [entry] = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, String(proposed[0].id))).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ action: 'tip-result.enter' });
  });

  it("refuses a confirmation where the feed proposes nothing, and another result than the feed's without an admin's reason", async () => {
    const ticket = (await store(staff, ref.o15, '2030-03-02', [fixtureLeg(106, '1X2', '1'), fixtureLeg(106, 'Correct score', '2-0', 9)])).json().ticket;
    fake.setStatus(106, 'FT', { halftime: { home: 1, away: 0 }, fulltime: { home: 2, away: 0 } });
    await kickedOff(ticket.id, 3);
    await proposeFeedResults(t.deps);
    const [win, score] = ticket.selections as { id: number }[];
    const nothing = await results(staff, [{ selection_id: score!.id, confirm_feed: true }]);
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().errors).toHaveProperty(['results.0.confirm_feed']);
    const noReason = await results(admin, [{ selection_id: win!.id, result: 'lost' }]);
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().errors['results.0.reason'][0]).toContain('The feed proposes won (90-minute score 2-0)');
    const byStaff = await results(staff, [{ selection_id: win!.id, result: 'lost', reason: 'The referee report changed the score' }]);
    expect(byStaff.statusCode).toBe(403);
    const byAdmin = await results(admin, [{ selection_id: win!.id, result: 'lost', reason: 'The referee report changed the score' }]);
    expect(byAdmin.statusCode).toBe(200);
    const [entry] = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, String(win!.id))).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ action: 'tip-result.override-feed' });
    expect(JSON.stringify(entry)).toContain('The referee report changed the score');
    // Typed by hand where the feed has nothing: as today.
    expect((await results(staff, [{ selection_id: score!.id, result: 'won' }])).statusCode).toBe(200);

    // The leg keeps the feed's word beside the admin's: the public record says it was corrected.
    const publicRecord = (await t.app.inject({ method: 'GET', url: '/api/portal/record?perPage=50' })).json();
    const listed = publicRecord.tickets.find((p: { id: number }) => p.id === ticket.id);
    expect(listed.selections.map((s: { result: string; feed_result: string | null }) => [s.result, s.feed_result])).toEqual([
      ['lost', 'won'],
      ['won', null],
    ]);
    const page = (await t.app.inject({ method: 'GET', url: '/portal/record?perPage=50' })).body;
    const card = page.slice(page.indexOf(`data-ticket="${ticket.id}"`));
    expect(card.slice(0, card.indexOf('</article>'))).toContain('data-result-source="corrected">(corrected: feed said Won)');
    expect(page).toContain(`data-chain-head="${publicRecord.chain_head}"`);
  });

  it('proposes void for a postponed fixture only once its clock ran out', async () => {
    fake.addFixture({ id: 107, home: 'Napoli', away: 'Lazio', kickoffAt: inHours(8), league: { id: 135, name: 'Serie A', country: 'Italy' } });
    await syncFixtures(t.deps);
    const ticket = (await store(staff, ref.d2, '2030-03-03', [fixtureLeg(107, '1X2', '1')])).json().ticket;
    fake.setStatus(107, 'PST');
    await syncFixtures(t.deps);
    await kickedOff(ticket.id, 3);
    expect(await proposeFeedResults(t.deps)).toEqual({ proposed: 0 });
    await t.deps.db.execute(sql`update feed_fixtures set status_since = now() - interval '73 hours' where external_id = '107'`);
    expect(await proposeFeedResults(t.deps)).toEqual({ proposed: 1 });
    const proposed = (await t.as(staff, { method: 'GET', url: '/api/tips/tickets/proposed-results' })).json().selections;
    expect(proposed.find((s: { id: number }) => s.id === ticket.selections[0].id)).toMatchObject({ proposed_result: 'void', proposal_basis: 'Postponed 72 h ago and not played: void' });
  });
});

describe('closing odds and CLV', () => {
  it("takes each open leg's price again at kick-off and shows the CLV on the leg and in the record", async () => {
    fake.addFixture({ id: 108, home: 'Porto', away: 'Benfica', kickoffAt: inHours(2), league: { id: 39, name: 'Premier League', country: 'England' }, odds: { home: 2.5, draw: 3.2, away: 2.8 } });
    await syncFixtures(t.deps);
    const ticket = (await store(staff, ref.d2, '2030-04-01', [fixtureLeg(108, '1X2', '1')])).json().ticket;
    expect(ticket.selections[0].odds).toBe(2.5);
    fake.moveOdds(108, 0.8);
    // Nothing is due two hours before kick-off.
    expect(await takeClosingOdds(t.deps)).toEqual({ taken: 0 });
    await t.deps.db.execute(sql`update tip_selections set kickoff_at = now() + interval '2 minutes' where ticket_id = ${ticket.id}`);
    expect(await takeClosingOdds(t.deps)).toEqual({ taken: 1 });
    const [leg] = (await t.as(staff, { method: 'GET', url: '/api/tips/tickets?from=2030-04-01&to=2030-04-01' })).json().tickets[0].selections;
    // 2.50 taken, 2.00 at the close: 25 % better than the closing line.
    expect(leg).toMatchObject({ odds: 2.5, closing_odds: 2, clv: 25 });
    fake.setStatus(108, 'FT', { halftime: { home: 1, away: 0 }, fulltime: { home: 1, away: 0 } });
    await kickedOff(ticket.id, 3);
    await proposeFeedResults(t.deps);
    await results(staff, [{ selection_id: leg.id, confirm_feed: true }]);
    const record = (await t.as(staff, { method: 'GET', url: `/api/tips/record?bet_category_id=${ref.d2}&from=2030-04-01&to=2030-04-01` })).json();
    expect(record).toMatchObject({ won: 1, average_clv: 25, unverified_legs: 0 });
  });
});

describe('the leagues the business follows, calendar-year seasons included', () => {
  beforeAll(() => {
    t.deps.sportsFeed = apiFootballFeed({ baseUrl: fake.url, apiKey: fake.apiKey });
  });

  it("asks a calendar-year league for the year's season and an August-to-May one for the season it started", async () => {
    const kickoffAt = inHours(10);
    fake.addFixture({ id: 120, home: 'LA Galaxy', away: 'Seattle Sounders', kickoffAt, league: { id: 253, name: 'Major League Soccer', country: 'USA' }, calendarYear: true });
    const refused = await setting('feed_calendar_year_leagues', 'MLS');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toHaveProperty(['value']);
    expect((await setting('feed_leagues', '39, 253')).statusCode).toBe(200);
    expect((await setting('feed_calendar_year_leagues', '253')).statusCode).toBe(200);
    const before = fake.requests.length;
    await syncFixtures(t.deps);
    const asked = fake.requests.slice(before).filter((r) => r.path.endsWith('fixtures'));
    const year = new Date().getUTCFullYear();
    const month = new Date().getUTCMonth();
    expect(asked.filter((r) => r.params.league === '253').map((r) => r.params.season)).toContain(String(kickoffAt.getUTCFullYear()));
    expect(asked.filter((r) => r.params.league === '39').map((r) => r.params.season)).toContain(String(month >= 6 ? year : year - 1));
    const found = (await t.as(staff, { method: 'GET', url: '/api/feed/fixtures?league=253' })).json();
    expect(found.fixtures.map((f: { home: string }) => f.home)).toEqual(['LA Galaxy']);
    await setting('feed_calendar_year_leagues', '');
    await setting('feed_leagues', '39,140,135');
  });
});
