import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { BusinessDay } from './lists.ts';

/**
 * The sports-data feed (decision 070): fixtures, odds and results come from a provider
 * (API-Football first) instead of being typed. A fixture is named by its provider and the
 * provider's own id; Betdesk keeps a local copy of the fixtures of the leagues it follows.
 */

/** A fixture's state in Betdesk's words; each provider's adapter maps its own codes onto these. */
export const FIXTURE_STATUSES = [
  'scheduled',
  'live',
  'finished',
  'postponed',
  'suspended',
  'cancelled',
  'abandoned',
  'awarded',
] as const;
export type FixtureStatus = (typeof FIXTURE_STATUSES)[number];

/** The providers Betdesk has an adapter for. */
export const FEED_PROVIDERS = ['api-football'] as const;
export type FeedProvider = (typeof FEED_PROVIDERS)[number];

/**
 * The markets the feed prices and settles, with their selections. A leg on any other market is
 * kept but gets neither a feed price nor a proposed result (manual entry).
 */
export const FEED_MARKETS = {
  '1X2': ['1', 'X', '2'],
  'Double chance': ['1X', '12', 'X2'],
  'Both teams to score': ['Yes', 'No'],
  'Total goals': ['Over 0.5', 'Under 0.5', 'Over 1.5', 'Under 1.5', 'Over 2.5', 'Under 2.5', 'Over 3.5', 'Under 3.5', 'Over 4.5', 'Under 4.5'],
} as const satisfies Record<string, readonly string[]>;
export type FeedMarket = keyof typeof FEED_MARKETS;
export const isFeedMarket = (market: string): market is FeedMarket => Object.hasOwn(FEED_MARKETS, market);

export const FeedFixture = z.object({
  /** The provider's id of the fixture (text: providers differ). */
  id: z.string(),
  provider: z.enum(FEED_PROVIDERS),
  home: z.string(),
  away: z.string(),
  competition: z.string(),
  kickoff_at: z.string(),
  status: z.enum(FIXTURE_STATUSES),
});
export type FeedFixture = z.infer<typeof FeedFixture>;

export const FeedFixturesQuery = z.object({
  /** Part of a team's or the competition's name (three letters at least for a search). */
  search: z.string().trim().max(80, 'The search is too long').optional(),
  /** The provider's league id. */
  league: z.string().trim().regex(/^\d{1,10}$/, 'Use a league id like 39').optional(),
  /** The match day (Africa/Nairobi). */
  date: BusinessDay.optional(),
});
export type FeedFixturesQuery = z.input<typeof FeedFixturesQuery>;

export const feedFixtures = endpoint({
  method: 'GET',
  path: '/api/feed/fixtures',
  tag: 'feed',
  summary:
    "Fixtures of the followed leagues from the local copy of the sports-data feed (no provider call): by team or competition name, league and match day (without a day: from three hours ago on), soonest first",
  access: 'manage:tips-content',
  query: FeedFixturesQuery,
  response: z.object({ fixtures: z.array(FeedFixture) }),
});

export const FeedState = z.object({
  /** Null: no feed is configured (SPORTS_FEED_PROVIDER unset); Betdesk works on typed legs. */
  provider: z.string().nullable(),
  /** Requests left today and this minute as the provider's last answer said; null: not known yet. */
  requests_remaining_day: z.number().nullable(),
  requests_remaining_minute: z.number().nullable(),
  /** After a 429 no request leaves before this instant. */
  backing_off_until: z.string().nullable(),
  last_sync_at: z.string().nullable(),
  fixtures: z.number(),
});
export type FeedState = z.infer<typeof FeedState>;

export const feedState = endpoint({
  method: 'GET',
  path: '/api/feed/state',
  tag: 'feed',
  summary: "The sports-data feed's provider, the quota its last answer reported and the local fixtures",
  access: 'manage:tips-content',
  response: FeedState,
});

export const syncFeedFixtures = endpoint({
  method: 'POST',
  path: '/api/feed/fixtures/sync',
  tag: 'feed',
  summary: 'Fetch the fixtures of the followed leagues now (the job does it every few hours)',
  access: 'manage:settings',
  response: z.object({ message: z.string(), fixtures: z.number() }),
});
