import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { betCategories } from './tips-core.ts';

/**
 * What a bet category offers for one day (decision 020): one ticket per category and match date. The
 * record reads the tickets of a category over a range of match dates, hence the unique index.
 */
export const tipTickets = pgTable(
  'tip_tickets',
  {
    id: serial('id').primaryKey(),
    betCategoryId: integer('bet_category_id')
      .notNull()
      .references(() => betCategories.id),
    matchDate: date('match_date', { mode: 'string' }).notNull(),
    /** When the current selections were stored; a store that changes nothing keeps it. */
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    /** The earliest kick-off of its selections: published later, the ticket never counts. */
    firstKickoffAt: timestamp('first_kickoff_at', { withTimezone: true }).notNull(),
    createdBy: integer('created_by').references(() => users.id),
    updatedBy: integer('updated_by').references(() => users.id),
  },
  (t) => [
    uniqueIndex('tip_tickets_category_day_idx').on(t.betCategoryId, t.matchDate),
    index('tip_tickets_match_date_idx').on(t.matchDate, t.id),
  ],
);

/** One leg of a ticket. Odds are stored in hundredths (1.35 is 135). */
export const tipSelections = pgTable(
  'tip_selections',
  {
    id: serial('id').primaryKey(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tipTickets.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    home: text('home').notNull(),
    away: text('away').notNull(),
    competition: text('competition').notNull(),
    kickoffAt: timestamp('kickoff_at', { withTimezone: true }).notNull(),
    market: text('market').notNull(),
    pick: text('pick').notNull(),
    oddsHundredths: integer('odds_hundredths').notNull(),
    result: text('result'),
    resultAt: timestamp('result_at', { withTimezone: true }),
    resultBy: integer('result_by').references(() => users.id),
    // The feed (decision 070): the fixture the leg is on (null: a typed match), where its odds come
    // from, the feed's price when published and at kick-off, and the result the feed proposes.
    fixtureProvider: text('fixture_provider'),
    fixtureId: text('fixture_id'),
    oddsSource: text('odds_source').notNull().default('typed'),
    oddsCapturedAt: timestamp('odds_captured_at', { withTimezone: true }),
    feedOddsHundredths: integer('feed_odds_hundredths'),
    verified: boolean('verified').notNull().default(false),
    closingOddsHundredths: integer('closing_odds_hundredths'),
    closingCapturedAt: timestamp('closing_captured_at', { withTimezone: true }),
    proposedResult: text('proposed_result'),
    proposalBasis: text('proposal_basis'),
    proposedAt: timestamp('proposed_at', { withTimezone: true }),
  },
  (t) => [
    index('tip_selections_ticket_idx').on(t.ticketId, t.position),
    // The "Enter results" screen: kicked-off legs without a result, oldest first.
    index('tip_selections_awaiting_idx').on(t.kickoffAt, t.id).where(sql`${t.result} is null`),
    check('tip_selections_odds_above_one', sql`${t.oddsHundredths} > 100`),
    // The feed's jobs: open legs on a fixture (results to propose, closing odds to take).
    index('tip_selections_open_fixture_idx').on(t.fixtureProvider, t.fixtureId).where(sql`${t.fixtureId} is not null and ${t.result} is null`),
    check(
      'tip_selections_result_known',
      sql`${t.result} is null or ${t.result} in ('won', 'lost', 'void', 'half_won', 'half_lost')`,
    ),
  ],
);

/**
 * The public proof (decision 071): each publication of a ticket is one link of a single hash chain,
 * `hash = sha256(prev_hash + "\n" + content)`, `content` the ticket as published (canonical JSON).
 * Append-only: a later change of a ticket is a new link, so a reader who kept an earlier chain head
 * can tell that nothing before it was rewritten.
 */
export const tipTicketProofs = pgTable(
  'tip_ticket_proofs',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tipTickets.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull().unique('tip_ticket_proofs_hash_unique'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tip_ticket_proofs_ticket_idx').on(t.ticketId, t.seq)],
);
