import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from './client.ts';
import { rows } from './rows.ts';

/**
 * Reads of the day summaries (docs/decisions/015-scale-summaries.md): `summary_days` plus the deltas
 * not yet folded in, in one statement, so a read is exact whatever the compaction job is doing.
 * Keys are read by prefix; end a prefix with ':' to stop at a level ('bet:open:' is not 'bet:opened:').
 */

/** Inclusive Africa/Nairobi days, either end open. */
export interface DayRange {
  from?: string | undefined;
  to?: string | undefined;
}

export interface Summed {
  n: number;
  amount_cents: number;
}

const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

function keysSql(prefixes: string | readonly string[]): SQL {
  const list = typeof prefixes === 'string' ? [prefixes] : prefixes;
  if (list.length === 0) return sql`false`;
  return sql`(${sql.join(
    list.map((p) => sql`key like ${likePrefix(p)}`),
    sql` or `,
  )})`;
}

function daysSql(range: DayRange | undefined): SQL {
  const parts: SQL[] = [];
  if (range?.from) parts.push(sql`day >= ${range.from}::date`);
  if (range?.to) parts.push(sql`day <= ${range.to}::date`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

function summaryRows(prefixes: string | readonly string[], range: DayRange | undefined): SQL {
  const where = sql`${keysSql(prefixes)} and ${daysSql(range)}`;
  return sql`(select key, day, n, amount_cents from summary_days where ${where}
              union all
              select key, day, n, amount_cents from summary_deltas where ${where})`;
}

/** Count and sum of every key starting with one of `prefixes`, over the days of `range`. */
export async function summed(db: Queryable, prefixes: string | readonly string[], range?: DayRange): Promise<Summed> {
  const [row] = await rows<{ n: string | null; amount_cents: string | null }>(
    db,
    sql`select sum(n) as n, sum(amount_cents) as amount_cents from ${summaryRows(prefixes, range)} s`,
  );
  return { n: Number(row?.n ?? 0), amount_cents: Number(row?.amount_cents ?? 0) };
}

/** The same, one row per key. */
export async function summedByKey(
  db: Queryable,
  prefixes: string | readonly string[],
  range?: DayRange,
): Promise<(Summed & { key: string })[]> {
  const found = await rows<{ key: string; n: string; amount_cents: string }>(
    db,
    sql`select key, sum(n) as n, sum(amount_cents) as amount_cents from ${summaryRows(prefixes, range)} s
         group by key having sum(n) <> 0 or sum(amount_cents) <> 0 order by key`,
  );
  return found.map((r) => ({ key: r.key, n: Number(r.n), amount_cents: Number(r.amount_cents) }));
}

/** One row per key and day (days with nothing are absent), ordered by day. */
export async function summedByDay(
  db: Queryable,
  prefixes: string | readonly string[],
  range?: DayRange,
): Promise<(Summed & { key: string; day: string })[]> {
  const found = await rows<{ key: string; day: string; n: string; amount_cents: string }>(
    db,
    sql`select key, to_char(day, 'YYYY-MM-DD') as day, sum(n) as n, sum(amount_cents) as amount_cents
          from ${summaryRows(prefixes, range)} s
         group by key, day having sum(n) <> 0 or sum(amount_cents) <> 0 order by day, key`,
  );
  return found.map((r) => ({ key: r.key, day: r.day, n: Number(r.n), amount_cents: Number(r.amount_cents) }));
}

/** Folds the committed deltas into summary_days; answers how many deltas it folded. A job runs it. */
export async function compactSummaries(db: Queryable): Promise<number> {
  const [row] = await rows<{ folded: string }>(db, sql`select compact_summaries() as folded`);
  return Number(row?.folded ?? 0);
}

/** Rebuilds every summary from the base rows (after a bulk load with triggers off); answers the rows written. */
export async function refreshSummaries(db: Queryable): Promise<number> {
  const [row] = await rows<{ rebuilt: string }>(db, sql`select refresh_summaries() as rebuilt`);
  return Number(row?.rebuilt ?? 0);
}
