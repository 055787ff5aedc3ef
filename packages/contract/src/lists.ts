import { z } from 'zod';
import { PageQuery } from './common.ts';

/**
 * What every remote-paged list shares beyond `page`/`perPage`: an optional search, a sort column
 * chosen from the list's own short set (each one served by an index), and a range of
 * Africa/Nairobi days. The web's tables and the API's list mechanism both read these definitions,
 * so a header is clickable exactly when the server can sort by it.
 */

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/**
 * Counts of a search stop here: a search for a common surname can match 100,000 rows, and counting
 * them all on every page costs more than the page. Money totals are never capped.
 */
export const COUNT_CAP = 10_000;

/**
 * A text search's count reaches only to the next thousand past the page on screen ("1,000+" on page
 * one, "2,000+" from page 20 of 50), never past COUNT_CAP: a common surname matches 5 % of the
 * M-Pesa payments, and counting 10,000 of them tests ten times the rows the page needs (decision 084).
 */
export const SEARCH_COUNT_STEP = 1_000;

/**
 * Pages are read by offset off an index; past this many rows a page would cost a walk over all the
 * rows before it, so deeper pages are refused (422 on `page`) with a hint to narrow the list.
 */
export const MAX_LIST_OFFSET = 100_000;

export const listTexts = {
  pastLastPage: `Only the first ${MAX_LIST_OFFSET.toLocaleString('en-US')} rows can be paged: narrow the list with a search or dates`,
};

/** A business day as YYYY-MM-DD, checked to be a real calendar date. */
export const BusinessDay = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-23')
  .refine((value) => {
    const d = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
  }, 'This is not a date of the calendar');

export interface ListDefinition<S extends string = string> {
  /** Response fields the list may be sorted by; the first is the default. */
  sorts: readonly [S, ...S[]];
  /** Direction of the default sort. */
  defaultDir: SortDirection;
  /** Takes `search`. */
  searchable: boolean;
  /** Takes `from`/`to` (inclusive Africa/Nairobi days) on the row's date, the default sort column. */
  dated: boolean;
}

function list<const S extends string>(def: ListDefinition<S>): ListDefinition<S> {
  return def;
}

/** Every paged list of the API, by the name its endpoints are exported under. */
export const LISTS = {
  clients: list({ sorts: ['joined_on', 'name'], defaultDir: 'desc', searchable: true, dated: false }),
  activeClients: list({ sorts: ['name'], defaultDir: 'asc', searchable: true, dated: false }),
  userClients: list({ sorts: ['name', 'joined_on'], defaultDir: 'asc', searchable: true, dated: false }),
  assignableClients: list({ sorts: ['name'], defaultDir: 'asc', searchable: true, dated: false }),
  clientSubscriptions: list({ sorts: ['done_on'], defaultDir: 'desc', searchable: false, dated: false }),
  clientBets: list({ sorts: ['opened_on'], defaultDir: 'desc', searchable: false, dated: false }),
  clientBonuses: list({ sorts: ['earned_on'], defaultDir: 'desc', searchable: false, dated: false }),
  clientPaidBonuses: list({ sorts: ['paid_on'], defaultDir: 'desc', searchable: false, dated: false }),
  openBets: list({ sorts: ['opened_on', 'stake'], defaultDir: 'desc', searchable: true, dated: false }),
  closedBets: list({ sorts: ['closed_on', 'opened_on', 'stake', 'profit'], defaultDir: 'desc', searchable: true, dated: true }),
  bonuses: list({ sorts: ['earned_on', 'bonus'], defaultDir: 'desc', searchable: true, dated: true }),
  unpaidBonuses: list({ sorts: ['earned_on', 'bonus'], defaultDir: 'desc', searchable: true, dated: true }),
  paidBonuses: list({ sorts: ['paid_on', 'amount'], defaultDir: 'desc', searchable: true, dated: true }),
  subscriptions: list({ sorts: ['done_on', 'amount'], defaultDir: 'desc', searchable: false, dated: true }),
  allSubscriptions: list({ sorts: ['done_on', 'amount'], defaultDir: 'desc', searchable: false, dated: true }),
  mpesaTransactions: list({ sorts: ['transaction_timestamp', 'amount'], defaultDir: 'desc', searchable: true, dated: true }),
  unclaimedTransactions: list({ sorts: ['transaction_timestamp', 'amount'], defaultDir: 'desc', searchable: true, dated: true }),
  tipsDeposits: list({ sorts: ['transaction_timestamp', 'amount'], defaultDir: 'desc', searchable: true, dated: true }),
  tipsSubscribers: list({ sorts: ['joined_on', 'name'], defaultDir: 'desc', searchable: true, dated: false }),
  tipsSubscriptions: list({ sorts: ['done_on', 'expiry_date'], defaultDir: 'desc', searchable: true, dated: true }),
  // Running subscriptions: the soonest to expire first, as the screen has always read.
  activeTipsSubscriptions: list({ sorts: ['expiry_date', 'done_on'], defaultDir: 'asc', searchable: true, dated: true }),
  smsLog: list({ sorts: ['queued_on'], defaultDir: 'desc', searchable: true, dated: true }),
  personMessages: list({ sorts: ['queued_on'], defaultDir: 'desc', searchable: false, dated: false }),
  posts: list({ sorts: ['match_date'], defaultDir: 'desc', searchable: true, dated: false }),
  // The API's own query (contract refunds.ts) adds `status`; dated by the day the refund was asked.
  refunds: list({ sorts: ['created_at'], defaultDir: 'desc', searchable: false, dated: true }),
} as const satisfies Record<string, ListDefinition>;

export type ListName = keyof typeof LISTS;
export type SortOf<N extends ListName> = (typeof LISTS)[N]['sorts'][number];

const SearchText = z.string().trim().max(100).default('');

function filterShape<N extends ListName>(name: N) {
  const def: ListDefinition = LISTS[name];
  const sorts = def.sorts as unknown as [SortOf<N>, ...SortOf<N>[]];
  return {
    search: SearchText,
    sort: z.enum(sorts, { message: `Sort by one of: ${def.sorts.join(', ')}` }).optional(),
    dir: z.enum(SORT_DIRECTIONS, { message: 'dir must be asc or desc' }).optional(),
    from: BusinessDay.optional(),
    to: BusinessDay.optional(),
  };
}

function checkFilters(name: ListName) {
  const def: ListDefinition = LISTS[name];
  return (q: { search?: string; from?: string; to?: string }, ctx: z.RefinementCtx) => {
    if (!def.searchable && q.search) {
      ctx.addIssue({ code: 'custom', path: ['search'], message: 'This list cannot be searched' });
    }
    if (!def.dated && (q.from || q.to)) {
      ctx.addIssue({ code: 'custom', path: [q.from ? 'from' : 'to'], message: 'This list has no date filter' });
    }
    if (q.from && q.to && q.from > q.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'The end date is before the start date' });
    }
  };
}

/** The filters of a list without paging: what its CSV export takes. */
export function listFilterQuery<N extends ListName>(name: N) {
  return z.object(filterShape(name)).superRefine(checkFilters(name));
}

/** Query of a paged list: `page`, `perPage` and the list's filters. */
export function listQuery<N extends ListName>(name: N) {
  const filters = checkFilters(name);
  return PageQuery.extend(filterShape(name)).superRefine((q, ctx) => {
    filters(q, ctx);
    if ((q.page - 1) * q.perPage > MAX_LIST_OFFSET) {
      ctx.addIssue({ code: 'custom', path: ['page'], message: listTexts.pastLastPage });
    }
  });
}

export type ListFilters<N extends ListName> = z.output<ReturnType<typeof listFilterQuery<N>>>;
export type ListQuery<N extends ListName> = z.output<ReturnType<typeof listQuery<N>>>;

/** Fields every paged list answers besides its rows. */
export const ListCounts = z.object({
  total_records: z.number(),
  /** True when `total_records` stopped at the count's cap (COUNT_CAP, or a search's SEARCH_COUNT_STEP past the page): show "10,000+". */
  total_capped: z.boolean().optional(),
});
