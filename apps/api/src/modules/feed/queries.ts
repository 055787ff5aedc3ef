import { and, asc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { FixtureStatus } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { feedFixtures, feedQuota, type FixtureScore } from '../../db/schema/index.ts';

export interface FixtureRow {
  provider: string;
  externalId: string;
  leagueId: string;
  competition: string;
  home: string;
  away: string;
  kickoffAt: Date;
  status: FixtureStatus;
  providerStatus: string;
  statusSince: Date;
  score: FixtureScore | null;
}

const fixtureColumns = {
  provider: feedFixtures.provider,
  externalId: feedFixtures.externalId,
  leagueId: feedFixtures.leagueId,
  competition: feedFixtures.competition,
  home: feedFixtures.home,
  away: feedFixtures.away,
  kickoffAt: feedFixtures.kickoffAt,
  status: sql<FixtureStatus>`${feedFixtures.status}`,
  providerStatus: feedFixtures.providerStatus,
  statusSince: feedFixtures.statusSince,
  score: feedFixtures.score,
};

export type FixtureUpsert = Omit<FixtureRow, 'statusSince'>;

/**
 * Stores the feed's fixtures: new ones inserted, known ones updated; the status clock restarts only
 * when the status changes (a postponed fixture seen again keeps the hour it was postponed).
 */
export async function upsertFixtures(db: Queryable, fixtures: FixtureUpsert[]): Promise<void> {
  if (fixtures.length === 0) return;
  await db
    .insert(feedFixtures)
    .values(fixtures)
    .onConflictDoUpdate({
      target: [feedFixtures.provider, feedFixtures.externalId],
      set: {
        leagueId: sql`excluded.league_id`,
        competition: sql`excluded.competition`,
        home: sql`excluded.home`,
        away: sql`excluded.away`,
        kickoffAt: sql`excluded.kickoff_at`,
        statusSince: sql`case when ${feedFixtures.status} = excluded.status then ${feedFixtures.statusSince} else now() end`,
        status: sql`excluded.status`,
        providerStatus: sql`excluded.provider_status`,
        score: sql`excluded.score`,
        syncedAt: sql`now()`,
      },
    });
}

export interface FixtureSearch {
  search?: string | undefined;
  league?: string | undefined;
  /** The match day's bounds (Africa/Nairobi day as instants). */
  from?: Date | undefined;
  to?: Date | undefined;
}

/**
 * The picker's search: a name part through feed_fixtures_search_trgm_idx (search_text is the
 * lower-cased teams and competition), a day through feed_fixtures_kickoff_idx; soonest first.
 */
export function searchFixturesQuery(db: Queryable, filter: FixtureSearch, limit: number) {
  const conditions: (SQL | undefined)[] = [
    filter.search ? sql`${feedFixtures.searchText} like ${`%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined,
    filter.league ? eq(feedFixtures.leagueId, filter.league) : undefined,
    filter.from ? gte(feedFixtures.kickoffAt, filter.from) : undefined,
    filter.to ? lt(feedFixtures.kickoffAt, filter.to) : undefined,
  ];
  return db
    .select(fixtureColumns)
    .from(feedFixtures)
    .where(and(...conditions))
    .orderBy(asc(feedFixtures.kickoffAt), asc(feedFixtures.externalId))
    .limit(limit);
}

export async function searchFixtures(db: Queryable, filter: FixtureSearch, limit: number): Promise<FixtureRow[]> {
  return searchFixturesQuery(db, filter, limit);
}

export async function fixturesByIds(db: Queryable, provider: string, ids: string[]): Promise<FixtureRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(fixtureColumns)
    .from(feedFixtures)
    .where(and(eq(feedFixtures.provider, provider), inArray(feedFixtures.externalId, ids)));
}

export async function countFixtures(db: Queryable): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(feedFixtures);
  return Number(row?.n ?? 0);
}

export interface QuotaRow {
  remainingDay: number | null;
  remainingMinute: number | null;
  backoffUntil: Date | null;
  lastSyncAt: Date | null;
}

export async function quotaOf(db: Queryable, provider: string): Promise<QuotaRow | null> {
  const [row] = await db
    .select({ remainingDay: feedQuota.remainingDay, remainingMinute: feedQuota.remainingMinute, backoffUntil: feedQuota.backoffUntil, lastSyncAt: feedQuota.lastSyncAt })
    .from(feedQuota)
    .where(eq(feedQuota.provider, provider));
  return row ?? null;
}

/** Records what the provider's last answer said (null fields keep what was known). */
export async function recordQuota(
  db: Queryable,
  provider: string,
  change: { remainingDay?: number | null; remainingMinute?: number | null; backoffSeconds?: number; synced?: boolean },
): Promise<void> {
  const backoff = change.backoffSeconds === undefined ? null : sql`now() + make_interval(secs => ${change.backoffSeconds})`;
  await db
    .insert(feedQuota)
    .values({
      provider,
      remainingDay: change.remainingDay ?? null,
      remainingMinute: change.remainingMinute ?? null,
      backoffUntil: backoff,
      lastSyncAt: change.synced ? sql`now()` : null,
    })
    .onConflictDoUpdate({
      target: feedQuota.provider,
      set: {
        remainingDay: sql`coalesce(excluded.remaining_day, ${feedQuota.remainingDay})`,
        remainingMinute: sql`coalesce(excluded.remaining_minute, ${feedQuota.remainingMinute})`,
        backoffUntil: backoff ?? feedQuota.backoffUntil,
        lastSyncAt: sql`coalesce(excluded.last_sync_at, ${feedQuota.lastSyncAt})`,
        updatedAt: sql`now()`,
      },
    });
}

/** Whether a 429's back-off still runs. */
export async function backingOff(db: Queryable, provider: string): Promise<boolean> {
  const [row] = await db
    .select({ on: sql<boolean>`${feedQuota.backoffUntil} > now()` })
    .from(feedQuota)
    .where(eq(feedQuota.provider, provider));
  return row?.on === true;
}
