import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/** The kinds of record one search finds (decision 067), in the order the answer lists them. */
export const SEARCH_KINDS = ['payment', 'client', 'subscriber', 'bet', 'refund', 'invoice'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** At most this many results of each kind: a search names a record, it does not list them. */
export const SEARCH_LIMIT_PER_KIND = 5;

/** A name is found by a part of it this long at least (the trigram indexes need three letters). */
export const SEARCH_MIN_NAME_LENGTH = 3;

export const SearchResult = z.object({
  kind: z.enum(SEARCH_KINDS),
  id: z.number(),
  /** What the record is called: a receipt, a name, "Bet 12", "Refund 4", "Invoice 1-27". */
  label: z.string(),
  /** A second line: the phone, the amount, the client, the status. */
  detail: z.string(),
  /** The screen of the record, a path of the web app. */
  href: z.string(),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const search = endpoint({
  method: 'GET',
  path: '/api/search',
  tag: 'search',
  summary:
    'One search for anything staff are told on the phone: an M-Pesa receipt, a phone in any form, a name, a bet, refund or invoice number (staff: their own clients only)',
  access: 'use:search',
  query: z.object({ q: z.string().trim().min(1, 'Type something to search for').max(60, 'Search for at most 60 characters') }),
  response: z.object({ q: z.string(), results: z.array(SearchResult) }),
});
