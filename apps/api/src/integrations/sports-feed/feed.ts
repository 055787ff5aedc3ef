import type { FeedMarket, FeedProvider, FixtureStatus } from '@betdesk/contract';
import type { FixtureScore } from '../../db/schema/feed.ts';

/**
 * A sports-data feed (decision 070), as Betdesk needs it: the fixtures of some leagues over some
 * days, one fixture's latest state, and its pre-match prices. An adapter maps its provider's shapes
 * onto these (API-Football is api-football.ts); a second provider (Sportmonks, The Odds API) is one
 * more file implementing this interface.
 */
export interface FeedFixtureData {
  provider: FeedProvider;
  id: string;
  leagueId: string;
  competition: string;
  home: string;
  away: string;
  kickoffAt: Date;
  status: FixtureStatus;
  /** The provider's own status code, kept for the audit of a proposal. */
  providerStatus: string;
  /** Null before kick-off. `regular` is the 90-minute score: never extra time or penalties. */
  score: FixtureScore | null;
}

/** One price of one bookmaker for one selection of a market Betdesk knows (FEED_MARKETS). */
export interface FeedPrice {
  bookmaker: string;
  market: FeedMarket;
  selection: string;
  /** Decimal odds in hundredths (2.05 is 205), as tickets store them. */
  oddsHundredths: number;
}

/** What the provider said about its quota in its last answer; null: it did not say. */
export interface FeedQuotaReport {
  remainingDay: number | null;
  remainingMinute: number | null;
}

/** The provider answered 429 (or its own "too many requests"): ask again no sooner than `retryAfterSeconds`. */
export class FeedRateLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`The sports-data feed asks to wait ${retryAfterSeconds} s (too many requests)`);
  }
}

/** The provider could not be reached or gave no usable answer. */
export class FeedUnavailable extends Error {}

export interface SportsFeed {
  provider: FeedProvider;
  /** The fixtures of these leagues from one day to another (inclusive, UTC days). */
  /** `calendarYearLeagues`: those of `leagues` whose season is the calendar year (a provider without seasons ignores it). */
  fixtures(query: { leagues: string[]; calendarYearLeagues?: string[]; from: string; to: string }): Promise<FeedFixtureData[]>;
  /** The latest state of these fixtures (scores, status); fixtures the provider no longer knows are left out. */
  fixturesById(ids: string[]): Promise<FeedFixtureData[]>;
  /** The pre-match prices of one fixture for the markets Betdesk knows. */
  prices(fixtureId: string): Promise<FeedPrice[]>;
  /** The quota as the last answer reported it (null before any answer). */
  lastQuota(): FeedQuotaReport | null;
}
