import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { COUNT_CAP, LISTS, SEARCH_COUNT_STEP, type ListName, type SortDirection, type SortOf } from '@betdesk/contract';
import type { Queryable } from './client.ts';
import { rows } from './rows.ts';
import type { DayRange } from './summaries.ts';

/**
 * The one list mechanism (docs/decisions/015-scale-summaries.md): every paged list reads its page
 * off an index chosen by its sort column, filters by Africa/Nairobi days on that index, counts
 * broad searches up to COUNT_CAP, and takes its totals from the day summaries.
 */

/** What a list's endpoint receives from packages/contract's `listQuery(name)`. */
export interface ListRequest<S extends string = string> {
  page: number;
  perPage: number;
  search?: string | undefined;
  sort?: S | undefined;
  dir?: SortDirection | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export const dayRangeOf = (q: { from?: string | undefined; to?: string | undefined }): DayRange => ({ from: q.from, to: q.to });

/** `column` within the inclusive Nairobi days: a range on the column itself, so its index serves it. */
export function inDays(column: SQL, range: DayRange): SQL {
  const parts: SQL[] = [];
  if (range.from) parts.push(sql`${column} >= (${range.from}::date)::timestamp at time zone 'Africa/Nairobi'`);
  if (range.to) parts.push(sql`${column} < (${range.to}::date + 1)::timestamp at time zone 'Africa/Nairobi'`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

/**
 * `order by <sort column> <dir>, <id> <dir>`: each list's columns are given as the SQL an index of
 * (column, id) serves, so both directions are one index scan.
 */
export function orderSql<N extends ListName>(
  name: N,
  columns: Record<SortOf<N>, SQL>,
  id: SQL,
  q: { sort?: SortOf<N> | undefined; dir?: SortDirection | undefined },
): SQL {
  const def = LISTS[name];
  const sort = (q.sort ?? def.sorts[0]) as SortOf<N>;
  const dir = sql.raw((q.dir ?? def.defaultDir) === 'asc' ? 'asc' : 'desc');
  return sql`${columns[sort]} ${dir}, ${id} ${dir}`;
}

/** `name contains` or `phone contains` (a phone typed 07.. matches the stored 2547..). */
export function nameOrPhoneContains(search: string, name: SQL, phone: SQL): SQL {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const digits = search.replace(/[^\d]/g, '');
  const conditions = [sql`${name} ilike ${pattern}`];
  if (digits.length >= 3 && /^[\d\s+()-]+$/.test(search)) {
    const stored = digits.startsWith('0') ? `254${digits.slice(1)}` : digits;
    conditions.push(sql`${phone} like ${`%${stored}%`}`);
  }
  return sql`(${sql.join(conditions, sql` or `)})`;
}

/** One page of a list: how many rows, after how many. */
export interface Page {
  limit: number;
  offset: number;
}

/** The page a list's request asks for. */
export const pageOf = (q: { page: number; perPage: number }): Page => ({ limit: q.perPage, offset: (q.page - 1) * q.perPage });

/**
 * A client page's sub-list: the rows (the page's, or every row for `null`) and, when paged, their
 * exact count (0 otherwise).
 */
export async function rowsAndCount<Row>(
  page: Page | null,
  rows: Promise<Row[]>,
  count: () => Promise<number>,
): Promise<{ list: Row[]; totalRecords: number }> {
  const [list, totalRecords] = await Promise.all([rows, page ? count() : 0]);
  return { list, totalRecords };
}

/** `limit … offset …` of a page; nothing for `null` (every row). */
export const limitSql = (page: Page | null): SQL => (page ? sql`limit ${page.limit} offset ${page.offset}` : sql``);

/** From this offset on, a page is picked by its ids first (see pageRows). */
export const DEFERRED_FROM = 1_000;

/**
 * The rows of one page of `table` (as `alias`, which `where` and `order` read), picked off the sort
 * index before anything is joined to them; `null` is every row. Callers join the page's people and
 * order it again.
 *
 * Deep in a list (the admin's last page of M-Pesa payments is 100,000 rows down), the offset walks
 * only the ids, off the sort index alone where `where` allows it, and just the page's rows are read
 * whole after: a deferred join (page 2000 at reference scale: an offset over 100,000 whole rows
 * against one over their index entries).
 */
export function pageRows(table: PgTable, alias: string, where: SQL, order: SQL, page: Page | null): SQL {
  if (!/^[a-z]+$/.test(alias)) throw new Error(`pageRows: alias ${alias} is not a plain name`);
  const a = sql.raw(alias);
  if (!page) return sql`select * from ${table} ${a} where ${where} order by ${order}`;
  const picked = sql`from ${table} ${a} where ${where} order by ${order} limit ${page.limit} offset ${page.offset}`;
  if (page.offset < DEFERRED_FROM) return sql`select * ${picked}`;
  return sql`select ${a}.* from ${table} ${a} where ${a}.id = any(array(select ${a}.id ${picked}))`;
}

/** `%text%` for ilike, with the user's % and _ taken literally. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

export interface ListCount {
  total_records: number;
  total_capped?: boolean;
}

/**
 * Counts the rows of `fromWhere` (a `from … where …` fragment) up to `cap` (COUNT_CAP, or a
 * search's `countCapOf`): a search for a common surname matches 100,000 rows, and the screen
 * says "10,000+" (or "1,000+") instead of counting them all.
 */
export function cappedCount(db: Queryable, fromWhere: SQL, cap: number = COUNT_CAP): Promise<ListCount> {
  return cappedCountOf(db, sql`select 1 ${fromWhere}`, cap);
}

/** The same, of the rows of any select (e.g. disjoint parts joined by `union all`). */
export async function cappedCountOf(db: Queryable, select: SQL, cap: number = COUNT_CAP): Promise<ListCount> {
  const [row] = await rows<{ n: string }>(db, sql`select count(*) as n from (${select} limit ${cap + 1}) c`);
  const n = Number(row?.n ?? 0);
  return n > cap ? { total_records: cap, total_capped: true } : { total_records: n };
}

/**
 * How far the count of a list's request reaches: COUNT_CAP, or for a text search the next multiple
 * of SEARCH_COUNT_STEP past the page's last row (never past COUNT_CAP). A search matches by
 * `ilike`, which no index answers without testing each row, so a count costs a test per row it
 * counts (decision 084: to 10,001 for a common surname, a scan of 196,000 payments at reference
 * scale). Counting just past the page keeps the count honest (the page's rows are within it, and a
 * capped count leaves the next page reachable) for about the cost of the page itself. A list whose
 * filter is another per-row test (`testsEachRow`: the active subscribers' `exists` of a running
 * subscription, 10,001 index probes at reference scale) counts the same way.
 */
export function countCapOf(q: { search?: string | undefined; page: number; perPage: number }, o: { testsEachRow?: boolean } = {}): number {
  if (!q.search?.trim() && !o.testsEachRow) return COUNT_CAP;
  const end = q.page * q.perPage;
  return Math.min(COUNT_CAP, (Math.floor(end / SEARCH_COUNT_STEP) + 1) * SEARCH_COUNT_STEP);
}

/** An exact count of a list whose rows a summary counts, or of a small filtered set. */
export async function exactCount(db: Queryable, fromWhere: SQL): Promise<number> {
  const [row] = await rows<{ n: string }>(db, sql`select count(*) as n ${fromWhere}`);
  return Number(row?.n ?? 0);
}
