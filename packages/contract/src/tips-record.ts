import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { Id, PageQuery } from './common.ts';
import { BusinessDay } from './lists.ts';
import { dateRangeFields, endsAfterStart, rangeOrderError } from './date-range.ts';
import { FEED_PROVIDERS } from './feed.ts';

/**
 * The tips track record (decision 020): a bet category's ticket of a day is a list of selections with
 * decimal odds; results are entered per selection and the record is computed from them.
 */

export const SELECTION_RESULTS = ['won', 'lost', 'void', 'half_won', 'half_lost'] as const;
export type SelectionResult = (typeof SELECTION_RESULTS)[number];

export const TICKET_STATUSES = ['pending', 'won', 'lost', 'void'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const MAX_TICKET_SELECTIONS = 20;

const NAIROBI_OFFSET = '+03:00';

/**
 * A kick-off as the form sends it: `2026-11-25T19:45` is Africa/Nairobi time; a full ISO instant
 * with an offset is taken as is. Answers the ISO instant.
 */
export const Kickoff = z
  .string({ message: 'Enter the kick-off' })
  .trim()
  .min(1, 'Enter the kick-off')
  .transform((value, ctx) => {
    const local = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/.test(value);
    const at = new Date(local ? `${value.replace(' ', 'T')}${NAIROBI_OFFSET}` : value);
    if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'Use a kick-off like 2026-11-25 19:45' });
      return z.NEVER;
    }
    return at.toISOString();
  });

/** Decimal odds above 1.00 with at most two decimals. */
export const Odds = z.coerce
  .number({ message: 'Enter the odds' })
  .refine((n) => Number.isFinite(n) && n > 1, 'Odds must be above 1.00')
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'Odds take at most two decimals')
  .refine((n) => n < 10_000, 'Odds must be below 10,000');

const Text = (label: string, max: number) =>
  z.string({ message: `Enter the ${label}` }).trim().min(1, `Enter the ${label}`).max(max, `The ${label} is too long`);

/** A fixture of the sports-data feed (decision 070): its provider and the provider's id. */
export const FixtureRef = z.object({
  provider: z.enum(FEED_PROVIDERS, { message: 'Choose the fixture from the feed' }),
  id: z.string({ message: 'Choose the fixture from the feed' }).trim().regex(/^[0-9A-Za-z_-]{1,40}$/, 'Choose the fixture from the feed'),
});
export type FixtureRef = z.infer<typeof FixtureRef>;

const optionalText = (label: string, max: number) => Text(label, max).optional();

/**
 * A leg as the form sends it: either a fixture of the feed (`fixture`, `market`, `selection`, odds
 * optional: the feed prices it) whose teams, competition and kick-off come from the feed, or a
 * typed match (home, away, competition, kick-off, market, pick, odds), kept as not verified.
 */
export const SelectionInput = z
  .object({
    fixture: FixtureRef.optional(),
    home: optionalText('home team', 80),
    away: optionalText('away team', 80),
    competition: optionalText('competition', 80),
    kickoff: Kickoff.optional(),
    market: Text('market', 40),
    pick: optionalText('pick', 40),
    /** The pick of a fixture leg (`pick` is accepted too). */
    selection: optionalText('pick', 40),
    odds: Odds.optional(),
  })
  .superRefine((leg, ctx) => {
    // Only absent fields: a field given but wrong already has its own message.
    const missing = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (leg.pick === undefined && leg.selection === undefined) missing(leg.fixture ? 'selection' : 'pick', 'Enter the pick');
    if (leg.fixture) return;
    if (leg.home === undefined) missing('home', 'Enter the home team');
    if (leg.away === undefined) missing('away', 'Enter the away team');
    if (leg.competition === undefined) missing('competition', 'Enter the competition');
    if (leg.kickoff === undefined) missing('kickoff', 'Enter the kick-off');
    if (leg.odds === undefined) missing('odds', 'Enter the odds');
  })
  .transform((leg) => ({ ...leg, pick: (leg.selection ?? leg.pick)! }));
export type SelectionInput = z.input<typeof SelectionInput>;

export const TicketInput = z.object({
  bet_category_id: Id,
  match_date: BusinessDay,
  selections: z
    .array(SelectionInput, { message: 'Add at least one selection' })
    .min(1, 'Add at least one selection')
    .max(MAX_TICKET_SELECTIONS, `A ticket holds at most ${MAX_TICKET_SELECTIONS} selections`),
});
export type TicketInput = z.input<typeof TicketInput>;

export const Selection = z.object({
  id: z.number(),
  home: z.string(),
  away: z.string(),
  competition: z.string(),
  kickoff: z.string(),
  market: z.string(),
  pick: z.string(),
  odds: z.number(),
  result: z.enum(SELECTION_RESULTS).nullable(),
  /** The feed's fixture the leg is on; null: a typed match. */
  fixture: FixtureRef.nullable(),
  /** Where the odds come from: `typed`, `feed:<bookmaker>` or `feed:median`. */
  odds_source: z.string(),
  /** When the feed's price was taken at publishing; null: none was (typed match, feed down). */
  odds_captured_at: z.string().nullable(),
  /** The feed's price at kick-off; null until taken. */
  closing_odds: z.number().nullable(),
  /** Closing line value in percent (odds taken ÷ closing odds − 1), one decimal; null without closing odds. */
  clv: z.number().nullable(),
  /** The match and the price were checked against the feed when published. */
  verified: z.boolean(),
  /**
   * The result the feed proposed (decision 070); null: none. A `result` other than this one is an
   * admin's correction, shown on the public record as "corrected: feed said …".
   */
  feed_result: z.enum(SELECTION_RESULTS).nullable(),
});
export type Selection = z.infer<typeof Selection>;

/** Where a leg's result came from: the feed (confirmed), an admin's correction of the feed, or staff alone. */
export function resultSource(s: Pick<Selection, 'result' | 'feed_result'>): 'feed' | 'corrected' | 'staff' | null {
  if (s.result === null) return null;
  if (s.feed_result === null) return 'staff';
  return s.result === s.feed_result ? 'feed' : 'corrected';
}

export const Ticket = z.object({
  id: z.number(),
  bet_category_id: z.number(),
  bet_category: z.string(),
  code: z.string(),
  match_date: z.string(),
  /** When the current selections were stored (the publication that the record checks). */
  published_at: z.string(),
  /** Published before its first kick-off: only such a ticket counts in the record. */
  counts: z.boolean(),
  combined_odds: z.number(),
  status: z.enum(TICKET_STATUSES),
  /** Units returned on a 1-unit stake less the stake; null while pending. */
  profit_units: z.number().nullable(),
  selections: z.array(Selection),
});
export type Ticket = z.infer<typeof Ticket>;

export const storeTicket = endpoint({
  method: 'POST',
  path: '/api/tips/tickets/store',
  tag: 'tips-record',
  summary:
    "Store a bet category's ticket of a day (replaces the day's ticket while none of its legs has a result; a selection that kicked off is locked)",
  access: 'manage:tips-content',
  body: TicketInput,
  response: z.object({ message: z.string(), ticket: Ticket }),
});

export const TicketsQuery = PageQuery.extend({ bet_category_id: Id.optional(), ...dateRangeFields }).refine(
  endsAfterStart,
  rangeOrderError,
);

export const tickets = endpoint({
  method: 'GET',
  path: '/api/tips/tickets',
  tag: 'tips-record',
  summary: 'Tickets with their legs, combined odds and status, newest match date first',
  access: 'manage:tips-content',
  query: TicketsQuery,
  response: z.object({ tickets: z.array(Ticket), total_records: z.number() }),
});

export const AwaitingSelection = Selection.extend({
  ticket_id: z.number(),
  bet_category: z.string(),
  code: z.string(),
  match_date: z.string(),
  /** The result the feed proposes from the 90-minute score (decision 070); null: none (yet). */
  proposed_result: z.enum(SELECTION_RESULTS).nullable(),
  /** Why: `90-minute score 2-1`, `Postponed: void after 72 h`. */
  proposal_basis: z.string().nullable(),
});
export type AwaitingSelection = z.infer<typeof AwaitingSelection>;

export const awaitingResults = endpoint({
  method: 'GET',
  path: '/api/tips/tickets/awaiting-results',
  tag: 'tips-record',
  summary: 'Selections whose kick-off has passed and that have no result yet, oldest first, across categories',
  access: 'manage:tips-content',
  response: z.object({ selections: z.array(AwaitingSelection) }),
});

export const proposedResults = endpoint({
  method: 'GET',
  path: '/api/tips/tickets/proposed-results',
  tag: 'tips-record',
  summary: 'Legs without a result for which the feed proposes one (finished, or void after a postponement), oldest first',
  access: 'manage:tips-content',
  response: z.object({ selections: z.array(AwaitingSelection) }),
});

export const ResultsInput = z.object({
  results: z
    .array(
      z
        .object({
          selection_id: Id,
          result: z.enum(SELECTION_RESULTS, { message: 'Choose won, lost, void, half won or half lost' }).optional(),
          /** Take the result the feed proposed (decision 070). */
          confirm_feed: z.literal(true).optional(),
          /** Why a result differs from the feed's proposal (an admin's correction, audited). */
          reason: z.string().trim().max(500, 'The reason is too long').optional(),
        })
        .superRefine((r, ctx) => {
          if (r.result === undefined && !r.confirm_feed) {
            ctx.addIssue({ code: 'custom', path: ['result'], message: 'Choose won, lost, void, half won or half lost' });
          }
        }),
      { message: 'Enter at least one result' },
    )
    .min(1, 'Enter at least one result'),
});
export type ResultsInput = z.input<typeof ResultsInput>;

export const enterResults = endpoint({
  method: 'POST',
  path: '/api/tips/tickets/results',
  tag: 'tips-record',
  summary: 'Enter results of selections that kicked off; changing an entered result is a correction (admin only, audited)',
  access: 'manage:tips-content',
  body: ResultsInput,
  response: z.object({ message: z.string(), entered: z.number(), corrected: z.number() }),
});

export const RecordQuery = z.object({ bet_category_id: Id.optional(), ...dateRangeFields }).refine(
  endsAfterStart,
  rangeOrderError,
);
export type RecordQuery = z.input<typeof RecordQuery>;

export const TrackRecord = z.object({
  tickets: z.number(),
  settled: z.number(),
  won: z.number(),
  lost: z.number(),
  void: z.number(),
  pending: z.number(),
  /** Percent of decided (won + lost) tickets won, one decimal; null with nothing decided. */
  hit_rate: z.number().nullable(),
  /**
   * The hit rate's 95 % confidence interval (Wilson score) in percent with one decimal: how far the
   * true rate may be from `hit_rate` on this few decided tickets; null with nothing decided.
   */
  hit_rate_interval: z.object({ low: z.number(), high: z.number() }).nullable(),
  /** Mean combined odds of the settled tickets, two decimals; null with nothing settled. */
  average_odds: z.number().nullable(),
  profit_units: z.number(),
  /** Percent profit per unit staked (1 unit per settled ticket), one decimal; null with nothing settled. */
  roi: z.number().nullable(),
  longest_win_streak: z.number(),
  longest_losing_streak: z.number(),
  /** +3: the last three decided tickets won; -2: the last two lost; 0: nothing decided. */
  current_streak: z.number(),
  /** The period the figures cover (null: open). */
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** Cumulative profit in units after each match date with a settled ticket. */
  profit_curve: z.array(z.object({ match_date: z.string(), profit_units: z.number() })),
  /** Mean closing line value of the legs with closing odds, percent with one decimal (decision 070); null: none. */
  average_clv: z.number().nullable(),
  /** Legs of the counted tickets whose match or price was not checked against the feed. */
  unverified_legs: z.number(),
});
export type TrackRecord = z.infer<typeof TrackRecord>;

export const trackRecord = endpoint({
  method: 'GET',
  path: '/api/tips/record',
  tag: 'tips-record',
  summary: 'The track record of a bet category (or of all) over a period, computed from the entered results',
  access: 'manage:tips-content',
  query: RecordQuery,
  response: TrackRecord,
});

export const exportTrackRecord = csvExport({
  path: '/api/tips/record/export',
  tag: 'tips-record',
  summary: 'CSV of every settled ticket of the record with its legs (one row per leg)',
  access: 'manage:tips-content',
  query: RecordQuery,
});

const GSM_FRIENDLY = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim();

const compact = (text: string) => GSM_FRIENDLY(text).replace(/\s+/g, '');

/** What a leg says in an SMS: the pick alone when it already tells the market (Over 1.5, 1X2 picks). */
function legLabel(market: string, pick: string): string {
  const m = compact(market);
  const p = compact(pick);
  if (m === '' || m.toUpperCase() === '1X2' || p.toLowerCase().includes(m.toLowerCase())) return p;
  if (m.toLowerCase().includes(p.toLowerCase())) return m;
  return `${m}:${p}`;
}

export const formatOdds = (odds: number) => odds.toFixed(2);

/** Product of the legs' odds, rounded to two decimals as bookmakers show it. */
export function combinedOdds(odds: readonly number[]): number {
  return Math.round(odds.reduce((product, o) => product * o, 1) * 100) / 100;
}

/**
 * The SMS text of a ticket in its most compact form (GSM-7 characters only, no competition or
 * kick-off), e.g. `D2 25/11: Arsenal-Chelsea Over1.5 @1.35; Milan-Roma 1 @1.52 Total @2.05`.
 */
export function ticketSmsText(
  code: string,
  matchDate: string,
  selections: readonly { home: string; away: string; market: string; pick: string; odds: number | string }[],
): string {
  const [, month, day] = matchDate.split('-');
  const legs = selections.map(
    (s) => `${GSM_FRIENDLY(s.home)}-${GSM_FRIENDLY(s.away)} ${legLabel(s.market, s.pick)} @${formatOdds(Number(s.odds))}`,
  );
  const total = selections.length > 1 ? ` Total @${formatOdds(combinedOdds(selections.map((s) => Number(s.odds))))}` : '';
  return `${GSM_FRIENDLY(code)} ${day}/${month}: ${legs.join('; ')}${total}`;
}
