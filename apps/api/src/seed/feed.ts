import { eq, sql } from 'drizzle-orm';
import { betCategories, tipSelections, tipTickets } from '../db/schema/index.ts';
import type { Queryable } from '../db/client.ts';

const HOUR = 3_600_000;

/**
 * With the demo's feed (SPORTS_FEED_PROVIDER=api-football-fake, decision 070): yesterday's D2 ticket
 * on the fake's finished Newcastle–Brighton (2-1 after 90 minutes), published before its kick-off
 * with the feed's price, so Enter Results shows the feed's proposal from the first start.
 */
export async function seedFeedDemo(tx: Queryable): Promise<void> {
  const [d2] = await tx.select({ id: betCategories.id }).from(betCategories).where(eq(betCategories.code, 'D2'));
  if (!d2) return;
  const kickoffAt = new Date(Date.now() - 20 * HOUR);
  const [ticket] = await tx
    .insert(tipTickets)
    .values({
      betCategoryId: d2.id,
      matchDate: sql`(${kickoffAt.toISOString()}::timestamptz at time zone 'Africa/Nairobi')::date`,
      firstKickoffAt: kickoffAt,
      publishedAt: new Date(kickoffAt.getTime() - 6 * HOUR),
    })
    .onConflictDoNothing()
    .returning({ id: tipTickets.id });
  if (!ticket) return;
  await tx.insert(tipSelections).values({
    ticketId: ticket.id,
    position: 0,
    home: 'Newcastle',
    away: 'Brighton',
    competition: 'Premier League (England)',
    kickoffAt,
    market: '1X2',
    pick: '1',
    oddsHundredths: 195,
    fixtureProvider: 'api-football',
    fixtureId: '900008',
    oddsSource: 'feed:median',
    oddsCapturedAt: new Date(kickoffAt.getTime() - 6 * HOUR),
    feedOddsHundredths: 195,
    verified: true,
    closingOddsHundredths: 180,
    closingCapturedAt: kickoffAt,
  });
}
