import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { Id, Notice } from './common.ts';
import { Bet, kesInput } from './clients.ts';
import { ListCounts, listFilterQuery, listQuery } from './lists.ts';

export const DESCRIPTION_MAX = 500;

/** New Bet modal: the client (name shown read-only), stake and what is bet on. */
export const NewBet = z.object({
  client_id: Id,
  name: z.string().optional(),
  stake: kesInput('The stake').refine((n) => n > 0, 'The stake must be more than 0'),
  description: z
    .string({ message: 'The bet description is required' })
    .trim()
    .min(1, 'The bet description is required')
    .max(DESCRIPTION_MAX, `The bet description may not be longer than ${DESCRIPTION_MAX} characters`),
});
export type NewBet = z.input<typeof NewBet>;

/** Enter Profit modal: negative for a lost bet (down to minus the stake). */
export const EnterProfit = z.object({
  bet_id: Id,
  name: z.string().optional(),
  stake: z.unknown().optional(),
  profit: kesInput('The profit'),
});
export type EnterProfit = z.input<typeof EnterProfit>;

export const openBet = endpoint({
  method: 'POST',
  path: '/api/bets/save',
  tag: 'bets',
  summary: 'Open a bet for an active client (stake within their maximum)',
  access: 'manage:bets',
  body: NewBet,
  response: Notice.extend({ bet_id: z.number() }),
});

export const enterProfit = endpoint({
  method: 'POST',
  path: '/api/bets/update',
  tag: 'bets',
  summary: "Enter an open bet's profit: closes it and, on a win, creates the pending bonus",
  access: 'manage:bets',
  body: EnterProfit,
  response: Notice.extend({ bonus: z.number() }),
});

/** Totals boxes: admins only (absent for staff). */
const BetTotals = z.object({ total_open_bets: z.number().optional(), total_closed_bets: z.number().optional() });

export const openBets = endpoint({
  method: 'GET',
  path: '/api/bets/open',
  tag: 'bets',
  summary: 'Open bets, newest first, paged and searchable (staff: their clients)',
  access: 'manage:bets',
  query: listQuery('openBets'),
  response: BetTotals.merge(ListCounts).extend({ bets: z.array(Bet) }),
});

const ClosedBetPage = BetTotals.merge(ListCounts).extend({ bets: z.array(Bet) });

export const closedBets = endpoint({
  method: 'GET',
  path: '/api/bets/closed',
  tag: 'bets',
  summary: 'Closed bets, newest closed first, paged (sort, from/to on the day closed)',
  access: 'manage:bets',
  query: listQuery('closedBets'),
  response: ClosedBetPage,
});

export const searchClosedBets = endpoint({
  method: 'GET',
  path: '/api/bets/closed/search',
  tag: 'bets',
  summary: "Closed bets whose client name, phone or description contains the search text, paged",
  access: 'manage:bets',
  query: listQuery('closedBets'),
  response: ClosedBetPage,
});

export const betTexts = {
  clientNotActive: 'This client has no running subscription; a bet can only be opened for an active client',
  stakeAboveMaximum: (max: string) => `The stake may not be more than the client's maximum stake of ${max}`,
  profitBelowLoss: 'A loss cannot be more than the stake',
  profitAlreadyEntered: 'The profit of this bet has already been entered',
} as const;

export const exportOpenBets = csvExport({
  path: '/api/bets/open/export',
  tag: 'bets',
  summary: 'CSV of the open bets, filtered and ordered as the list',
  access: 'manage:bets',
  query: listFilterQuery('openBets'),
});

export const exportClosedBets = csvExport({
  path: '/api/bets/closed/export',
  tag: 'bets',
  summary: 'CSV of the closed bets, filtered and ordered as the list',
  access: 'manage:bets',
  query: listFilterQuery('closedBets'),
});
