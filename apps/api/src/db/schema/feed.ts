import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** A score as the feed gives it: goals of each side in one period of the match. */
export interface PeriodScore {
  home: number | null;
  away: number | null;
}

/** The scores of a fixture by period; `regular` is the score after 90 minutes (plus stoppage). */
export interface FixtureScore {
  halftime: PeriodScore;
  regular: PeriodScore;
  extraTime: PeriodScore;
  penalties: PeriodScore;
}

/**
 * The local copy of the fixtures of the leagues the business follows (decision 070): searched by the
 * ticket screen's fixture picker, so typing spends no provider quota. Written by the feed module's sync.
 */
export const feedFixtures = pgTable(
  'feed_fixtures',
  {
    provider: text('provider').notNull(),
    externalId: text('external_id').notNull(),
    leagueId: text('league_id').notNull(),
    competition: text('competition').notNull(),
    home: text('home').notNull(),
    away: text('away').notNull(),
    kickoffAt: timestamp('kickoff_at', { withTimezone: true }).notNull(),
    status: text('status').notNull(),
    /** The provider's own status code (API-Football's `fixture.status.short`). */
    providerStatus: text('provider_status').notNull(),
    /** When the status last changed: the void clocks of postponed and abandoned fixtures run from it. */
    statusSince: timestamp('status_since', { withTimezone: true }).notNull().defaultNow(),
    score: jsonb('score').$type<FixtureScore>(),
    searchText: text('search_text').generatedAlwaysAs(sql`lower(home || ' ' || away || ' ' || competition)`),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.externalId] }),
    index('feed_fixtures_kickoff_idx').on(t.kickoffAt),
    index('feed_fixtures_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/** What the provider's last answer said about its quota, and the back-off after a 429 (one row per provider). */
export const feedQuota = pgTable('feed_quota', {
  provider: text('provider').primaryKey(),
  remainingDay: integer('remaining_day'),
  remainingMinute: integer('remaining_minute'),
  backoffUntil: timestamp('backoff_until', { withTimezone: true }),
  lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
