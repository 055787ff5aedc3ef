import type { FeedMarket, FixtureStatus } from '@betdesk/contract';
import type { PeriodScore } from '../../db/schema/feed.ts';
import { FeedRateLimited, FeedUnavailable, type FeedFixtureData, type FeedPrice, type FeedQuotaReport, type SportsFeed } from './feed.ts';

/**
 * API-Football v3 (api-sports.io; INTEGRATIONS.md): GET /fixtures by league, season and days or by
 * ids, GET /odds by fixture, the key in `x-apisports-key`. Each answer carries the quota in
 * `x-ratelimit-requests-remaining` (per day) and `X-RateLimit-Remaining` (per minute); too many
 * requests answer 429, or 200 with `errors.rateLimit` / `errors.requests`.
 */
export interface ApiFootballOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
}

/** API-Football's `fixture.status.short` in Betdesk's words. */
export const API_FOOTBALL_STATUSES: Record<string, FixtureStatus> = {
  TBD: 'scheduled',
  NS: 'scheduled',
  '1H': 'live',
  HT: 'live',
  '2H': 'live',
  ET: 'live',
  BT: 'live',
  P: 'live',
  LIVE: 'live',
  SUSP: 'suspended',
  INT: 'suspended',
  FT: 'finished',
  AET: 'finished',
  PEN: 'finished',
  PST: 'postponed',
  CANC: 'cancelled',
  ABD: 'abandoned',
  AWD: 'awarded',
  WO: 'awarded',
};

/** API-Football's bet names and values for the markets Betdesk prices (FEED_MARKETS). */
const BETS: Record<string, { market: FeedMarket; selection: (value: string) => string | null }> = {
  'Match Winner': { market: '1X2', selection: (v) => ({ Home: '1', Draw: 'X', Away: '2' })[v] ?? null },
  'Double Chance': { market: 'Double chance', selection: (v) => ({ 'Home/Draw': '1X', 'Home/Away': '12', 'Draw/Away': 'X2' })[v] ?? null },
  'Both Teams Score': { market: 'Both teams to score', selection: (v) => (v === 'Yes' || v === 'No' ? v : null) },
  'Goals Over/Under': { market: 'Total goals', selection: (v) => (/^(Over|Under) \d+\.5$/.test(v) ? v : null) },
};

/** At most this many ids in one `/fixtures?ids=` request (the API's limit). */
const IDS_PER_REQUEST = 20;

interface ApiScore {
  home: number | null;
  away: number | null;
}

interface ApiFixture {
  fixture: { id: number; date: string; status: { short: string } };
  league: { id: number; name: string; country?: string };
  teams: { home: { name: string }; away: { name: string } };
  goals: ApiScore;
  score: { halftime: ApiScore; fulltime: ApiScore; extratime: ApiScore; penalty: ApiScore };
}

interface ApiOdds {
  fixture: { id: number };
  bookmakers: { id: number; name: string; bets: { id: number; name: string; values: { value: string; odd: string }[] }[] }[];
}

interface ApiAnswer<T> {
  errors: unknown;
  results: number;
  response: T[];
}

const period = (s: ApiScore | undefined): PeriodScore => ({ home: s?.home ?? null, away: s?.away ?? null });

/**
 * A football season as API-Football names it: the year it starts. An August-to-May league's season
 * runs from July; a calendar-year league's (MLS, Brazil's Série A) is the year
 * itself: `calendarYear`.
 */
export function seasonOf(day: string, calendarYear = false): number {
  const [year, month] = day.split('-').map(Number) as [number, number];
  if (calendarYear) return year;
  return month >= 7 ? year : year - 1;
}

/** The seasons a window of days falls in: two when it crosses a season's start (one request each). */
export function seasonsOf(from: string, to: string, calendarYear = false): number[] {
  const first = seasonOf(from, calendarYear);
  const last = seasonOf(to, calendarYear);
  return first === last ? [first] : [first, last];
}

export function toFixture(f: ApiFixture): FeedFixtureData {
  const status = API_FOOTBALL_STATUSES[f.fixture.status.short] ?? 'scheduled';
  // score.fulltime is the score after 90 minutes; `goals` adds extra time (never penalties).
  let regular = period(f.score?.fulltime);
  if (regular.home === null && status === 'finished' && f.fixture.status.short === 'FT') regular = period(f.goals);
  const started = f.goals.home !== null || f.score?.halftime?.home != null;
  return {
    provider: 'api-football',
    id: String(f.fixture.id),
    leagueId: String(f.league.id),
    competition: f.league.country ? `${f.league.name} (${f.league.country})` : f.league.name,
    home: f.teams.home.name,
    away: f.teams.away.name,
    kickoffAt: new Date(f.fixture.date),
    status,
    providerStatus: f.fixture.status.short,
    score: started
      ? { halftime: period(f.score?.halftime), regular, extraTime: period(f.score?.extratime), penalties: period(f.score?.penalty) }
      : null,
  };
}

export function toPrices(answer: ApiOdds[]): FeedPrice[] {
  const prices: FeedPrice[] = [];
  for (const entry of answer) {
    for (const bookmaker of entry.bookmakers) {
      for (const bet of bookmaker.bets) {
        const known = BETS[bet.name];
        if (!known) continue;
        for (const v of bet.values) {
          const selection = known.selection(String(v.value));
          const odds = Math.round(Number(v.odd) * 100);
          if (selection && Number.isFinite(odds) && odds > 100) {
            prices.push({ bookmaker: bookmaker.name, market: known.market, selection, oddsHundredths: odds });
          }
        }
      }
    }
  }
  return prices;
}

const headerNumber = (headers: Headers, name: string): number | null => {
  const value = headers.get(name);
  return value === null || value === '' || !Number.isFinite(Number(value)) ? null : Number(value);
};

/** `errors` is [] when all went well, else an object by kind (`token`, `rateLimit`, `requests`, a parameter's name). */
function errorsOf(errors: unknown): Record<string, string> {
  if (!errors || Array.isArray(errors)) return {};
  return errors as Record<string, string>;
}

export function apiFootballFeed(options: ApiFootballOptions): SportsFeed {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  let quota: FeedQuotaReport | null = null;

  async function get<T>(path: string, params: Record<string, string>): Promise<T[]> {
    let res: Response;
    try {
      res = await fetch(`${base}/${path}?${new URLSearchParams(params)}`, {
        headers: { 'x-apisports-key': options.apiKey, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new FeedUnavailable(`API-Football could not be reached (${error instanceof Error ? error.message : String(error)})`);
    }
    const day = headerNumber(res.headers, 'x-ratelimit-requests-remaining');
    const minute = headerNumber(res.headers, 'x-ratelimit-remaining');
    if (day !== null || minute !== null) quota = { remainingDay: day, remainingMinute: minute };
    if (res.status === 429) throw new FeedRateLimited(headerNumber(res.headers, 'retry-after') ?? 60);
    if (!res.ok) throw new FeedUnavailable(`API-Football answered HTTP ${res.status}`);
    let body: ApiAnswer<T>;
    try {
      body = (await res.json()) as ApiAnswer<T>;
    } catch {
      throw new FeedUnavailable('API-Football answered something that is not JSON');
    }
    const errors = errorsOf(body.errors);
    // The day's requests are spent: nothing answers before the quota resets (00:00 UTC).
    if (errors.requests) throw new FeedRateLimited(secondsToUtcMidnight());
    if (errors.rateLimit) throw new FeedRateLimited(60);
    const first = Object.entries(errors)[0];
    if (first) throw new FeedUnavailable(`API-Football refused the request (${first[0]}: ${first[1]})`);
    return Array.isArray(body.response) ? body.response : [];
  }

  return {
    provider: 'api-football',
    async fixtures({ leagues, calendarYearLeagues = [], from, to }) {
      const found: FeedFixtureData[] = [];
      for (const league of leagues) {
        for (const season of seasonsOf(from, to, calendarYearLeagues.includes(league))) {
          const list = await get<ApiFixture>('fixtures', { league, season: String(season), from, to, timezone: 'UTC' });
          found.push(...list.map(toFixture));
        }
      }
      return found;
    },
    async fixturesById(ids) {
      const found: FeedFixtureData[] = [];
      for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
        const list = await get<ApiFixture>('fixtures', { ids: ids.slice(i, i + IDS_PER_REQUEST).join('-'), timezone: 'UTC' });
        found.push(...list.map(toFixture));
      }
      return found;
    },
    async prices(fixtureId) {
      return toPrices(await get<ApiOdds>('odds', { fixture: fixtureId }));
    },
    lastQuota: () => quota,
  };
}

function secondsToUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(60, Math.ceil((midnight - now.getTime()) / 1000));
}
