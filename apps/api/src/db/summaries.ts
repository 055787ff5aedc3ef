import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from './client.ts';
import { rows } from './rows.ts';

/**
 * Reads of the day summaries (docs/decisions/015-scale-summaries.md): `summary_days` plus the deltas
 * not yet folded in, in one statement, so a read is exact whatever the compaction job is doing.
 * Keys are read by prefix; end a prefix with ':' to stop at a level ('bet:open:' is not 'bet:opened:').
 */

/**
 * The kinds of key the summary triggers write, each with the parts that follow it, ':'-separated:
 * `bet:opened:<staff>`, `payment:<status>:<payer>:<source>`, `client`. The triggers' `*_summary(row)`
 * functions write them (drizzle/0015_summaries_triggers.sql; payment_summary and bonus_summary as
 * redefined in 0029_money_definitions.sql); test/money/summary-keys.test.ts holds this list to them.
 * `staff` is the user who opened the bet, 0 when not recorded; `payer` is client, subscriber or none
 * (subscription_reversed: client or subscriber); `medium` is sms, web or '-'.
 */
export const SUMMARY_KINDS = {
  payment: ['status', 'payer', 'source'],
  'bet:opened': ['staff'],
  'bet:open': ['staff'],
  'bet:closed': ['staff'],
  'bet:profit': ['staff'],
  'bonus:earned': ['staff'],
  'bonus:paid': ['staff'],
  'bonus:unpaid': ['staff'],
  bonus_payment: [],
  'subscription:client': ['plan'],
  'subscription:subscriber': ['category', 'medium'],
  subscription_reversed: ['payer'],
  client: [],
  tips_subscriber: [],
  sms: ['status'],
} as const;

export type SummaryKind = keyof typeof SUMMARY_KINDS;

/** A key read back: its kind and its parts by name, e.g. `{ kind: 'bet:opened', staff: '12' }`. */
export type SummaryKey = {
  [K in SummaryKind]: { kind: K } & Record<(typeof SUMMARY_KINDS)[K][number], string>;
}[SummaryKind];

const kinds = Object.keys(SUMMARY_KINDS) as SummaryKind[];

/**
 * The kind and parts of a summary key; null for a key of no listed kind or with the wrong number of
 * parts. No kind is another's prefix up to a ':', so a key has one kind at most.
 */
export function parseSummaryKey(key: string): SummaryKey | null {
  const kind = kinds.find((k) => key === k || key.startsWith(`${k}:`));
  if (!kind) return null;
  const names: readonly string[] = SUMMARY_KINDS[kind];
  const parts = key === kind ? [] : key.slice(kind.length + 1).split(':');
  if (parts.length !== names.length) return null;
  return Object.fromEntries([['kind', kind], ...names.map((name, i) => [name, parts[i]])]) as SummaryKey;
}

/** The kinds counted per staff member (who opened the bet). */
export type StaffKind = Extract<SummaryKey, { staff: string }>['kind'];

/**
 * What a reader may ask the summaries for: a kind's key (`client`), a kind and some leading parts
 * (`bet:open:`, `payment:claimed:subscriber:`), or a family of kinds (`bet:`, `bonus:`). Checked by
 * the compiler, so a misspelt prefix (which would sum nothing, silently) does not build.
 */
type FamilyOf<K extends string> = K extends `${infer F}:${string}` ? `${F}:` : never;
export type SummaryPrefix = SummaryKind | `${SummaryKind}:${string}` | FamilyOf<SummaryKind> | EveryKey;
/** Every key (a rebuild's check of the whole table). */
type EveryKey = '';

/** A per-staff key's kind and user id (0: the bet's opener was not recorded); null for any other key. */
export function staffKey(key: string): { kind: StaffKind; userId: number } | null {
  const parsed = parseSummaryKey(key);
  return parsed && 'staff' in parsed ? { kind: parsed.kind, userId: Number(parsed.staff) } : null;
}

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

function keysSql(prefixes: SummaryPrefix | readonly SummaryPrefix[]): SQL {
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

function summaryRows(prefixes: SummaryPrefix | readonly SummaryPrefix[], range: DayRange | undefined): SQL {
  const where = sql`${keysSql(prefixes)} and ${daysSql(range)}`;
  return sql`(select key, day, n, amount_cents from summary_days where ${where}
              union all
              select key, day, n, amount_cents from summary_deltas where ${where})`;
}

/** Count and sum of every key starting with one of `prefixes`, over the days of `range`. */
export async function summed(db: Queryable, prefixes: SummaryPrefix | readonly SummaryPrefix[], range?: DayRange): Promise<Summed> {
  const [row] = await rows<{ n: string | null; amount_cents: string | null }>(
    db,
    sql`select sum(n) as n, sum(amount_cents) as amount_cents from ${summaryRows(prefixes, range)} s`,
  );
  return { n: Number(row?.n ?? 0), amount_cents: Number(row?.amount_cents ?? 0) };
}

/** The same, one row per key. */
export async function summedByKey(
  db: Queryable,
  prefixes: SummaryPrefix | readonly SummaryPrefix[],
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
  prefixes: SummaryPrefix | readonly SummaryPrefix[],
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
