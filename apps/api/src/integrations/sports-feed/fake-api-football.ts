import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for API-Football v3 (INTEGRATIONS.md), answering in its documented shapes:
 * GET /fixtures by `league`+`season`+`from`/`to` or by `ids` (dash-separated), GET /odds by
 * `fixture` (bookmakers[].bets[].values[] {value, odd}), the `x-apisports-key` header (a wrong key
 * is answered 200 with `errors.token`, as the API does), the quota headers on every answer and 429
 * when told to. Used by the tests and the demo (SPORTS_FEED_PROVIDER=api-football-fake).
 */
export interface FakeScore {
  home: number | null;
  away: number | null;
}

export interface FakeFixture {
  fixture: {
    id: number;
    referee: string | null;
    timezone: string;
    date: string;
    timestamp: number;
    venue: { id: number | null; name: string | null; city: string | null };
    status: { long: string; short: string; elapsed: number | null; extra: number | null };
  };
  league: { id: number; name: string; country: string; season: number; round: string };
  teams: { home: { id: number; name: string; winner: boolean | null }; away: { id: number; name: string; winner: boolean | null } };
  goals: FakeScore;
  score: { halftime: FakeScore; fulltime: FakeScore; extratime: FakeScore; penalty: FakeScore };
}

export interface FakeBookmaker {
  id: number;
  name: string;
  bets: { id: number; name: string; values: { value: string; odd: string }[] }[];
}

export interface FakeApiFootball {
  url: string;
  apiKey: string;
  fixtures: Map<number, FakeFixture>;
  odds: Map<number, FakeBookmaker[]>;
  /** Requests answered (429s included). */
  requests: { path: string; params: Record<string, string> }[];
  /** Requests left today; each answer decrements it and reports it in x-ratelimit-requests-remaining. */
  dailyRemaining: number;
  /** The next `n` requests are answered 429. */
  rateLimitNext(n?: number): void;
  /** Every connection is cut before an answer. */
  down: boolean;
  /** `calendarYear`: the league's season is the calendar year (as API-Football names MLS's or Série A's). */
  addFixture(f: { id: number; home: string; away: string; kickoffAt: Date; league?: { id: number; name: string; country: string }; odds?: FakeOddsTable; calendarYear?: boolean }): FakeFixture;
  /** A status change (`1H`, `PST`, `ABD` ...) with the scores the API then shows. */
  setStatus(id: number, short: string, scores?: Partial<FakeFixture['score']>): void;
  /** Every price of the fixture multiplied by `factor` (prices move before kick-off). */
  moveOdds(id: number, factor: number): void;
  close(): Promise<void>;
}

/** A fixture's prices as the test or the demo gives them: 1X2 and a few totals. */
export interface FakeOddsTable {
  home: number;
  draw: number;
  away: number;
  over25?: number;
  under25?: number;
  btts?: number;
}

const STATUS_LONG: Record<string, string> = {
  TBD: 'Time To Be Defined',
  NS: 'Not Started',
  '1H': 'First Half',
  HT: 'Halftime',
  '2H': 'Second Half',
  ET: 'Extra Time',
  BT: 'Break Time',
  P: 'Penalty In Progress',
  SUSP: 'Match Suspended',
  INT: 'Match Interrupted',
  FT: 'Match Finished',
  AET: 'Match Finished After Extra Time',
  PEN: 'Match Finished After Penalty',
  PST: 'Match Postponed',
  CANC: 'Match Cancelled',
  ABD: 'Match Abandoned',
  AWD: 'Technical Loss',
  WO: 'WalkOver',
};

const BOOKMAKERS = [
  { id: 8, name: 'Bet365', spread: 1 },
  { id: 11, name: '1xBet', spread: 1.03 },
  { id: 16, name: 'Unibet', spread: 0.98 },
];

const price = (n: number) => (Math.round(n * 100) / 100).toFixed(2);
const none: FakeScore = { home: null, away: null };

function bookmakersFor(table: FakeOddsTable): FakeBookmaker[] {
  return BOOKMAKERS.map((b) => ({
    id: b.id,
    name: b.name,
    bets: [
      { id: 1, name: 'Match Winner', values: [
        { value: 'Home', odd: price(table.home * b.spread) },
        { value: 'Draw', odd: price(table.draw * b.spread) },
        { value: 'Away', odd: price(table.away * b.spread) },
      ] },
      { id: 5, name: 'Goals Over/Under', values: [
        { value: 'Over 1.5', odd: price(Math.max(1.05, (table.over25 ?? 1.9) * 0.7) * b.spread) },
        { value: 'Under 1.5', odd: price((table.under25 ?? 1.9) * 1.7 * b.spread) },
        { value: 'Over 2.5', odd: price((table.over25 ?? 1.9) * b.spread) },
        { value: 'Under 2.5', odd: price((table.under25 ?? 1.9) * b.spread) },
      ] },
      { id: 8, name: 'Both Teams Score', values: [
        { value: 'Yes', odd: price((table.btts ?? 1.8) * b.spread) },
        { value: 'No', odd: price(2 * b.spread) },
      ] },
      { id: 12, name: 'Double Chance', values: [
        { value: 'Home/Draw', odd: price(Math.max(1.05, table.home * 0.6) * b.spread) },
        { value: 'Home/Away', odd: price(1.3 * b.spread) },
        { value: 'Draw/Away', odd: price(Math.max(1.05, table.away * 0.6) * b.spread) },
      ] },
    ],
  }));
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function startFakeApiFootball(options: { apiKey?: string; dailyLimit?: number } = {}): Promise<FakeApiFootball> {
  let limited = 0;
  const dailyLimit = options.dailyLimit ?? 7500;
  const fake: FakeApiFootball = {
    url: '',
    apiKey: options.apiKey ?? 'fake-api-football-key',
    fixtures: new Map(),
    odds: new Map(),
    requests: [],
    dailyRemaining: dailyLimit,
    rateLimitNext(n = 1) {
      limited += n;
    },
    down: false,
    addFixture({ id, home, away, kickoffAt, league, odds, calendarYear = false }) {
      const l = league ?? { id: 39, name: 'Premier League', country: 'England' };
      const f: FakeFixture = {
        fixture: {
          id,
          referee: null,
          timezone: 'UTC',
          date: kickoffAt.toISOString().replace('.000Z', '+00:00'),
          timestamp: Math.floor(kickoffAt.getTime() / 1000),
          venue: { id: null, name: null, city: null },
          status: { long: STATUS_LONG.NS!, short: 'NS', elapsed: null, extra: null },
        },
        league: {
          ...l,
          season: calendarYear || kickoffAt.getUTCMonth() >= 6 ? kickoffAt.getUTCFullYear() : kickoffAt.getUTCFullYear() - 1,
          round: 'Regular Season - 14',
        },
        teams: { home: { id: id * 2, name: home, winner: null }, away: { id: id * 2 + 1, name: away, winner: null } },
        goals: { ...none },
        score: { halftime: { ...none }, fulltime: { ...none }, extratime: { ...none }, penalty: { ...none } },
      };
      fake.fixtures.set(id, f);
      fake.odds.set(id, bookmakersFor(odds ?? { home: 2.1, draw: 3.4, away: 3.5 }));
      return f;
    },
    setStatus(id, short, scores = {}) {
      const f = fake.fixtures.get(id);
      if (!f) throw new Error(`no fake fixture ${id}`);
      f.fixture.status = { long: STATUS_LONG[short] ?? short, short, elapsed: ['FT', 'AET', 'PEN'].includes(short) ? (short === 'FT' ? 90 : 120) : null, extra: null };
      f.score = { ...f.score, ...scores };
      const ft = f.score.fulltime;
      const et = f.score.extratime;
      // `goals` is the score with extra time, never the penalties (API-Football's shape).
      f.goals = ft.home === null ? { ...(f.score.halftime.home === null ? none : f.score.halftime) } : { home: ft.home + (et.home ?? 0), away: ft.away! + (et.away ?? 0) };
    },
    moveOdds(id, factor) {
      for (const b of fake.odds.get(id) ?? []) for (const bet of b.bets) for (const v of bet.values) v.odd = price(Math.max(1.01, Number(v.odd) * factor));
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (fake.down) return req.socket.destroy();
    const url = new URL(req.url ?? '/', 'http://fake');
    const params = Object.fromEntries(url.searchParams);
    const path = url.pathname.replace(/^\/+/, '');
    fake.requests.push({ path, params });
    const quotaHeaders = () => ({
      'x-ratelimit-requests-limit': String(dailyLimit),
      'x-ratelimit-requests-remaining': String(fake.dailyRemaining),
      'X-RateLimit-Limit': '300',
      'X-RateLimit-Remaining': String(limited > 0 ? 0 : 299),
    });
    if (limited > 0) {
      limited -= 1;
      return send(res, 429, { message: 'Too many requests' }, { ...quotaHeaders(), 'Retry-After': '60' });
    }
    const answer = (response: unknown[], errors: unknown = []) =>
      send(res, 200, { get: path, parameters: params, errors, results: response.length, paging: { current: 1, total: 1 }, response }, quotaHeaders());
    if (req.headers['x-apisports-key'] !== fake.apiKey) return answer([], { token: 'Error/Missing application key. Go to https://www.api-football.com/documentation-v3 to learn how to get your API application key.' });
    fake.dailyRemaining = Math.max(0, fake.dailyRemaining - 1);
    if (path === 'fixtures') {
      let list = [...fake.fixtures.values()];
      if (params.ids) {
        const ids = new Set(params.ids.split('-').map(Number));
        list = list.filter((f) => ids.has(f.fixture.id));
      } else {
        if (!params.league || !params.season) return answer([], { required: 'At least one parameter is required.' });
        list = list.filter((f) => String(f.league.id) === params.league && String(f.league.season) === params.season);
        if (params.from) list = list.filter((f) => f.fixture.date.slice(0, 10) >= params.from!);
        if (params.to) list = list.filter((f) => f.fixture.date.slice(0, 10) <= params.to!);
      }
      return answer(list.sort((a, b) => a.fixture.timestamp - b.fixture.timestamp));
    }
    if (path === 'odds') {
      const f = fake.fixtures.get(Number(params.fixture));
      const bookmakers = fake.odds.get(Number(params.fixture));
      if (!f || !bookmakers) return answer([]);
      return answer([{ league: f.league, fixture: { id: f.fixture.id, timezone: 'UTC', date: f.fixture.date, timestamp: f.fixture.timestamp }, update: new Date().toISOString(), bookmakers }]);
    }
    send(res, 404, { message: 'Endpoint not found' }, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

const HOUR = 3_600_000;

/**
 * The demo's feed: this week's fixtures of three leagues around now, prices that drift every few
 * minutes, a match finished after extra time, one postponed and one abandoned.
 */
export async function demoFakeApiFootball(): Promise<FakeApiFootball> {
  const fake = await startFakeApiFootball({ apiKey: 'demo' });
  const now = Date.now();
  const at = (hours: number) => new Date(Math.floor((now + hours * HOUR) / (15 * 60_000)) * 15 * 60_000);
  const epl = { id: 39, name: 'Premier League', country: 'England' };
  const liga = { id: 140, name: 'La Liga', country: 'Spain' };
  const seriea = { id: 135, name: 'Serie A', country: 'Italy' };
  const list: [number, string, string, number, typeof epl, FakeOddsTable][] = [
    [900001, 'Arsenal', 'Chelsea', 3, epl, { home: 1.85, draw: 3.6, away: 4.2, over25: 1.72 }],
    [900002, 'Liverpool', 'Everton', 5, epl, { home: 1.4, draw: 4.8, away: 7.5, over25: 1.6 }],
    [900003, 'Manchester City', 'Tottenham', 26, epl, { home: 1.55, draw: 4.3, away: 5.4 }],
    [900004, 'Real Madrid', 'Sevilla', 28, liga, { home: 1.45, draw: 4.6, away: 6.5 }],
    [900005, 'Barcelona', 'Valencia', 50, liga, { home: 1.5, draw: 4.4, away: 6 }],
    [900006, 'Inter', 'Juventus', 52, seriea, { home: 2.2, draw: 3.2, away: 3.4, under25: 1.75 }],
    [900007, 'Milan', 'Roma', 74, seriea, { home: 2.05, draw: 3.4, away: 3.6 }],
    [900008, 'Newcastle', 'Brighton', -20, epl, { home: 1.95, draw: 3.6, away: 3.8 }],
    [900009, 'Napoli', 'Lazio', -22, seriea, { home: 1.9, draw: 3.5, away: 4 }],
    [900010, 'Atletico Madrid', 'Villarreal', -26, liga, { home: 1.7, draw: 3.7, away: 5 }],
  ];
  for (const [id, home, away, hours, league, odds] of list) fake.addFixture({ id, home, away, kickoffAt: at(hours), league, odds });
  fake.setStatus(900008, 'FT', { halftime: { home: 1, away: 0 }, fulltime: { home: 2, away: 1 } });
  fake.setStatus(900009, 'PST');
  fake.setStatus(900010, 'ABD', { halftime: { home: 0, away: 0 } });
  // Prices drift a little every five minutes before kick-off, as a market does.
  const drift = setInterval(() => {
    for (const id of fake.fixtures.keys()) fake.moveOdds(id, Math.random() < 0.5 ? 0.99 : 1.01);
  }, 5 * 60_000);
  drift.unref();
  return fake;
}

let shared: Promise<FakeApiFootball> | null = null;
/** One fake per process for the demo (SPORTS_FEED_PROVIDER=api-football-fake). */
export function sharedFakeApiFootball(): Promise<FakeApiFootball> {
  shared ??= demoFakeApiFootball();
  return shared;
}
