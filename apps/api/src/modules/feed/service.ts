import type { z } from 'zod';
import { nairobiDayStart, type FeedFixture, type FeedFixturesQuery, type FeedState, type FeedProvider } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Queryable } from '../../db/client.ts';
import { releaseLease, takeLease } from '../../db/leases.ts';
import { FeedRateLimited, FeedUnavailable, type FeedFixtureData, type FeedPrice, type SportsFeed } from '../../integrations/sports-feed/feed.ts';
import { getSettings } from '../settings/service.ts';
import * as q from './queries.ts';

/**
 * The sports-data feed's side of Betdesk (decision 070): the local copy of the followed leagues'
 * fixtures, the quota the provider reports, and the prices and fixture states other modules ask
 * for. Every provider call goes through `call`, which honours a 429's back-off and records the
 * quota; a feed that is down or backing off answers null, so publishing and results go on by hand.
 */

export type FixtureRow = q.FixtureRow;

const DAY = 86_400_000;
const PICKER_LIMIT = 50;
const SYNC_LEASE = 'feed-sync';

type FeedDeps = Pick<AppDeps, 'db' | 'sportsFeed'>;

function toFeedFixture(f: q.FixtureRow): FeedFixture {
  return {
    id: f.externalId,
    provider: f.provider as FeedProvider,
    home: f.home,
    away: f.away,
    competition: f.competition,
    kickoff_at: new Date(f.kickoffAt).toISOString(),
    status: f.status,
  };
}

const toUpsert = (f: FeedFixtureData): q.FixtureUpsert => ({
  provider: f.provider,
  externalId: f.id,
  leagueId: f.leagueId,
  competition: f.competition,
  home: f.home,
  away: f.away,
  kickoffAt: f.kickoffAt,
  status: f.status,
  providerStatus: f.providerStatus,
  score: f.score,
});

/**
 * One provider call: none while a 429's back-off runs; the quota of the answer recorded; a 429
 * starts the back-off. Null when the feed is down, backing off or limited (the caller goes on without it).
 */
async function call<T>(db: Queryable, feed: SportsFeed, work: (feed: SportsFeed) => Promise<T>): Promise<T | null> {
  if (await q.backingOff(db, feed.provider)) return null;
  try {
    const answer = await work(feed);
    const quota = feed.lastQuota();
    if (quota) await q.recordQuota(db, feed.provider, quota);
    return answer;
  } catch (error) {
    const quota = feed.lastQuota();
    if (error instanceof FeedRateLimited) {
      await q.recordQuota(db, feed.provider, { ...(quota ?? {}), backoffSeconds: error.retryAfterSeconds });
      return null;
    }
    if (error instanceof FeedUnavailable) return null;
    throw error;
  }
}

/** The league ids of the `feed_leagues` setting. */
export function leaguesOf(setting: string | number): string[] {
  // One id alone may come back from the stored JSON as a number.
  return String(setting)
    .split(',')
    .map((id) => id.trim())
    .filter((id) => /^\d+$/.test(id));
}

const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * Fetches the followed leagues' fixtures from yesterday to `feed_sync_days_ahead` days ahead into
 * the local table: one request per league. One process at a time (a lease, decision 064).
 */
export async function syncFixtures(deps: FeedDeps): Promise<{ fixtures: number; synced: boolean }> {
  const feed = deps.sportsFeed;
  if (!feed) return { fixtures: 0, synced: false };
  if (!(await takeLease(deps.db, SYNC_LEASE, 300))) return { fixtures: 0, synced: false };
  try {
    const settings = await getSettings(deps.db, ['feed_leagues', 'feed_calendar_year_leagues', 'feed_sync_days_ahead']);
    const leagues = leaguesOf(settings.feed_leagues);
    const calendarYearLeagues = leaguesOf(settings.feed_calendar_year_leagues);
    const now = Date.now();
    const window = { from: utcDay(now - DAY), to: utcDay(now + settings.feed_sync_days_ahead * DAY) };
    const found = await call(deps.db, feed, (f) => f.fixtures({ leagues, calendarYearLeagues, ...window }));
    if (found === null) return { fixtures: 0, synced: false };
    await q.upsertFixtures(deps.db, found.map(toUpsert));
    await q.recordQuota(deps.db, feed.provider, { synced: true });
    return { fixtures: found.length, synced: true };
  } finally {
    await releaseLease(deps.db, SYNC_LEASE);
  }
}

/**
 * The latest state of these fixtures from the provider (scores, status), stored locally; answers
 * the stored rows (the old ones when the feed does not answer). Only fixtures someone holds a leg
 * on are asked about, 20 to a request.
 */
export async function refreshFixtures(deps: FeedDeps, provider: string, ids: string[]): Promise<q.FixtureRow[]> {
  const feed = deps.sportsFeed;
  if (feed && feed.provider === provider && ids.length > 0) {
    const found = await call(deps.db, feed, (f) => f.fixturesById(ids));
    if (found) await q.upsertFixtures(deps.db, found.map(toUpsert));
  }
  return q.fixturesByIds(deps.db, provider, ids);
}

/** Stored fixtures by provider and id (no provider call). */
export function storedFixtures(db: Queryable, provider: string, ids: string[]): Promise<q.FixtureRow[]> {
  return q.fixturesByIds(db, provider, ids);
}

export async function searchFixtures(db: Queryable, query: z.output<typeof FeedFixturesQuery>): Promise<FeedFixture[]> {
  // Without a day the picker offers what can still be tipped: fixtures from three hours ago on.
  const from = query.date ? nairobiDayStart(query.date) : new Date(Date.now() - 3 * 3_600_000);
  const to = query.date ? new Date(from.getTime() + DAY) : undefined;
  const found = await q.searchFixtures(db, { search: query.search || undefined, league: query.league, from, to }, PICKER_LIMIT);
  return found.map(toFeedFixture);
}

/** A price taken from the feed: which bookmaker (or the median), the odds and when. */
export interface TakenPrice {
  oddsHundredths: number;
  source: string;
  capturedAt: Date;
}

/** The median of the prices in hundredths (the mean of the two middle ones, rounded, for an even count). */
export function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

/** The price of one selection among a fixture's prices: the named bookmaker's, else the median of all. */
export function pickPrice(prices: FeedPrice[], market: string, selection: string, bookmaker: string): Omit<TakenPrice, 'capturedAt'> | null {
  const offers = prices.filter((p) => p.market === market && p.selection === selection);
  if (offers.length === 0) return null;
  const named = bookmaker.trim() === '' ? undefined : offers.find((p) => p.bookmaker.toLowerCase() === bookmaker.trim().toLowerCase());
  if (named) return { oddsHundredths: named.oddsHundredths, source: `feed:${named.bookmaker}` };
  return { oddsHundredths: medianOf(offers.map((p) => p.oddsHundredths)), source: 'feed:median' };
}

/**
 * A fixture's prices for some selections, one provider call; null when the feed is not configured,
 * down or backing off. Each selection's entry is null when the feed has no price for it.
 */
export async function takePrices(
  deps: FeedDeps,
  provider: string,
  fixtureId: string,
  selections: { market: string; selection: string }[],
): Promise<(TakenPrice | null)[] | null> {
  const feed = deps.sportsFeed;
  if (!feed || feed.provider !== provider) return null;
  const prices = await call(deps.db, feed, (f) => f.prices(fixtureId));
  if (prices === null) return null;
  const { feed_odds_bookmaker: bookmaker } = await getSettings(deps.db, ['feed_odds_bookmaker']);
  const capturedAt = new Date();
  return selections.map((s) => {
    const found = pickPrice(prices, s.market, s.selection, bookmaker);
    return found ? { ...found, capturedAt } : null;
  });
}

/** The provider, the quota it last reported and the local fixtures (Settings, /metrics). */
export async function feedState(deps: FeedDeps): Promise<FeedState> {
  const provider = deps.sportsFeed?.provider ?? null;
  const quota = provider ? await q.quotaOf(deps.db, provider) : null;
  return {
    provider,
    requests_remaining_day: quota?.remainingDay ?? null,
    requests_remaining_minute: quota?.remainingMinute ?? null,
    backing_off_until: quota?.backoffUntil && new Date(quota.backoffUntil) > new Date() ? new Date(quota.backoffUntil).toISOString() : null,
    last_sync_at: quota?.lastSyncAt ? new Date(quota.lastSyncAt).toISOString() : null,
    fixtures: await q.countFixtures(deps.db),
  };
}
