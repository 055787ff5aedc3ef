import {
  addDays as contractAddDays,
  nairobiDayOf as contractNairobiDayOf,
  nairobiDayStart as contractNairobiDayStart,
  periodStart as contractPeriodStart,
  type ReportGroup,
} from '@betdesk/contract';
import type { HistoryRow } from './retention-formulas.ts';

/**
 * What one tips subscriber's purchases add to the retention summaries (decision 043): the same
 * definitions as retention-formulas.ts, cut into per-day (and per-month) pieces that add up across
 * subscribers. A change to a subscriber's subscriptions takes back the pieces of their old rows and
 * adds those of the new, so the summaries are a sum over subscribers of this function.
 */

export const RETENTION_DIMS = ['all', 'category', 'medium', 'channel'] as const;
export type RetentionDim = (typeof RETENTION_DIMS)[number];

/** Renewal lags are kept in whole days up to the largest grace the setting allows; beyond, one bucket. */
export const MAX_GRACE_DAYS = 60;
export const NEVER_RENEWED = MAX_GRACE_DAYS + 1;
/** prev_day of a purchase with none before it. */
export const NO_PREVIOUS_DAY = '1900-01-01';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/**
 * The contract's day arithmetic, remembered: a rebuild cuts every subscriber, and parsing and
 * printing a day string on each call would dominate the cut. Days are few (a few thousand), so the
 * caches stay small.
 */
function remembered<K, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    let v = cache.get(key);
    if (v === undefined) cache.set(key, (v = compute(key)));
    return v;
  };
}
const dayByHour = remembered((hour: number) => contractNairobiDayOf(new Date(hour * HOUR_MS)));
/** Nairobi keeps a whole-hour offset: the day of an instant is the day of its hour. */
const nairobiDayOf = (t: Date) => dayByHour(Math.floor(t.getTime() / HOUR_MS));
const dayStartMs = remembered((day: string) => contractNairobiDayStart(day).getTime());
const nairobiDayStart = (day: string) => new Date(dayStartMs(day));
const shifted = remembered((key: string) => contractAddDays(key.slice(0, 10), Number(key.slice(11))));
const addDays = (day: string, n: number) => shifted(`${day}|${n}`);
const startOf = remembered((key: string) => contractPeriodStart(key.slice(0, 10), key.slice(11) as ReportGroup));
const periodStart = (day: string, g: ReportGroup) => (g === 'day' ? day : startOf(`${day}|${g}`));
const GRANULARITIES = ['day', 'week', 'month'] as const satisfies readonly ReportGroup[];

export const categoryKey = (id: number | null) => (id === null ? 'none' : String(id));
export const mediumKey = (m: HistoryRow['medium']) => m ?? 'none';

export interface DayPiece {
  coverIn: number;
  coverOut: number;
  churnDay: number;
  churnWeek: number;
  churnMonth: number;
  incomeCents: number;
  retainedDayCents: number;
  retainedWeekCents: number;
  retainedMonthCents: number;
  payersDay: number;
  payersWeek: number;
  payersMonth: number;
  churnSoFarWeek: number;
  churnSoFarMonth: number;
}

export interface CohortPiece {
  members: number;
  active: number;
  incomeCents: number;
}

/** A cover as kept in retention_covers: its `channel` is the subscriber's (their first purchase's). */
export interface CoverRow extends HistoryRow {
  renewalLagMs: number | null;
}

export interface IntervalRow {
  subscriberId: number;
  dim: RetentionDim;
  key: string;
  startsAt: Date;
  endsAt: Date;
  nextStartsAt: Date | null;
}

/** The pieces, keyed `dim|key|day`, `dim|key|day|lag`, `dim|key|day|prevDay`, `dim|key|since|day`, `dim|key|cohort|month`. */
export interface Pieces {
  days: Map<string, DayPiece>;
  ends: Map<string, number>;
  payers: Map<string, number>;
  payersSince: Map<string, number>;
  cohorts: Map<string, CohortPiece>;
}

export const emptyPieces = (): Pieces => ({ days: new Map(), ends: new Map(), payers: new Map(), payersSince: new Map(), cohorts: new Map() });

const zeroDay = (): DayPiece => ({
  coverIn: 0,
  coverOut: 0,
  churnDay: 0,
  churnWeek: 0,
  churnMonth: 0,
  incomeCents: 0,
  retainedDayCents: 0,
  retainedWeekCents: 0,
  retainedMonthCents: 0,
  payersDay: 0,
  payersWeek: 0,
  payersMonth: 0,
  churnSoFarWeek: 0,
  churnSoFarMonth: 0,
});

const byBought = (a: HistoryRow, b: HistoryRow) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id;

/** The first Nairobi midnight at or after t, as a day. */
function firstMidnightFrom(t: Date): string {
  const day = nairobiDayOf(t);
  return nairobiDayStart(day).getTime() === t.getTime() ? day : addDays(day, 1);
}

function nextPeriodStart(start: string, g: ReportGroup): string {
  if (g === 'day') return addDays(start, 1);
  if (g === 'week') return addDays(start, 7);
  return periodStart(addDays(start, 31), 'month');
}

/**
 * The renewal lag of each cover: milliseconds from its end to the earliest purchase of the same
 * line (category and medium) bought after it that runs past its end (the `followUp` of the
 * formulas takes any such purchase within the grace, so the earliest decides); null when none.
 */
export function renewalLags(cover: readonly HistoryRow[]): Map<number, number | null> {
  const out = new Map<number, number | null>();
  for (const s of cover) {
    let earliest: number | null = null;
    for (const f of cover) {
      if (f === s || f.categoryId !== s.categoryId || f.medium !== s.medium) continue;
      if (byBought(f, s) <= 0 || f.expiresAt.getTime() <= s.expiresAt.getTime()) continue;
      if (earliest === null || f.createdAt.getTime() < earliest) earliest = f.createdAt.getTime();
    }
    out.set(s.id, earliest === null ? null : earliest - s.expiresAt.getTime());
  }
  return out;
}

/** A lag in whole days, as retention_ends buckets it: renewed within a grace of G days ⇔ bucket ≤ G. */
export function lagBucket(lagMs: number | null): number {
  if (lagMs === null) return NEVER_RENEWED;
  const days = lagMs <= 0 ? 0 : Math.ceil(lagMs / DAY_MS);
  return days > MAX_GRACE_DAYS ? NEVER_RENEWED : days;
}

/** Merged covers: [start, end) runs with touching or overlapping covers joined. */
export function mergedCover(cover: readonly HistoryRow[]): { startsAt: Date; endsAt: Date }[] {
  const sorted = [...cover].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  const out: { startsAt: Date; endsAt: Date }[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.startsAt.getTime() <= last.endsAt.getTime()) {
      if (r.expiresAt.getTime() > last.endsAt.getTime()) last.endsAt = r.expiresAt;
    } else if (r.expiresAt.getTime() > r.startsAt.getTime()) {
      out.push({ startsAt: r.startsAt, endsAt: r.expiresAt });
    }
  }
  return out;
}

/** One split's part of a subscriber's pieces. */
function addGroup(p: Pieces, dim: RetentionDim, key: string, cover: readonly HistoryRow[], lags: Map<number, number | null>): { startsAt: Date; endsAt: Date }[] {
  if (cover.length === 0) return [];
  const day = (d: string) => {
    const k = `${dim}|${key}|${d}`;
    let piece = p.days.get(k);
    if (!piece) p.days.set(k, (piece = zeroDay()));
    return piece;
  };
  const runs = mergedCover(cover);
  const midnights = runs.map((run) => ({ inDay: firstMidnightFrom(run.startsAt), outDay: firstMidnightFrom(run.endsAt) }));
  const coveredAt = (d: string) => midnights.some((m) => m.inDay <= d && d < m.outDay);
  // Churn so far of a calendar week (month), at each midnight inside it: of the subscribers covered
  // at its start, those not covered at that midnight; it changes where a run leaves or enters.
  const soFar = (d: string, change: number) => {
    for (const g of ['week', 'month'] as const) {
      const start = periodStart(d, g);
      if (d === start || !coveredAt(start)) continue;
      if (g === 'week') day(d).churnSoFarWeek += change;
      else day(d).churnSoFarMonth += change;
    }
  };
  for (const [i, run] of runs.entries()) {
    const { inDay, outDay } = midnights[i]!;
    if (inDay < outDay) {
      day(inDay).coverIn += 1;
      day(outDay).coverOut += 1;
      soFar(inDay, -1);
      soFar(outDay, 1);
    }
    // Churn of a whole calendar period: only the period holding the run's last instant can see it
    // end, if the run covered its start; churned unless another run covers the period's end.
    for (const g of GRANULARITIES) {
      const start = periodStart(nairobiDayOf(new Date(run.endsAt.getTime() - 1)), g);
      if (nairobiDayStart(start).getTime() < run.startsAt.getTime()) continue;
      const end = nairobiDayStart(nextPeriodStart(start, g)).getTime();
      if (runs.some((o) => o.startsAt.getTime() <= end && o.endsAt.getTime() > end)) continue;
      const piece = day(start);
      if (g === 'day') piece.churnDay += 1;
      else if (g === 'week') piece.churnWeek += 1;
      else piece.churnMonth += 1;
    }
  }
  for (const s of cover) {
    const k = `${dim}|${key}|${nairobiDayOf(s.expiresAt)}|${lagBucket(lags.get(s.id) ?? null)}`;
    p.ends.set(k, (p.ends.get(k) ?? 0) + 1);
  }
  const bought = [...cover].sort(byBought);
  const boughtDays = bought.map((r) => nairobiDayOf(r.createdAt));
  const paidIn = (from: string, to: string) => boughtDays.some((d) => d >= from && d < to);
  bought.forEach((r, i) => {
    const d = boughtDays[i]!;
    const piece = day(d);
    piece.incomeCents += r.amountCents;
    const paidBefore = (g: ReportGroup) => {
      const start = periodStart(d, g);
      return paidIn(periodStart(addDays(start, -1), g), start);
    };
    if (paidBefore('day')) piece.retainedDayCents += r.amountCents;
    if (paidBefore('week')) piece.retainedWeekCents += r.amountCents;
    if (paidBefore('month')) piece.retainedMonthCents += r.amountCents;
    // A payer of a calendar period once: the purchase whose previous one is before the period's start.
    const before = i === 0 ? NO_PREVIOUS_DAY : boughtDays[i - 1]!;
    if (before < d) day(d).payersDay += 1;
    if (before < periodStart(d, 'week')) day(periodStart(d, 'week')).payersWeek += 1;
    if (before < periodStart(d, 'month')) day(periodStart(d, 'month')).payersMonth += 1;
    const pk = `${dim}|${key}|${d}|${before}`;
    p.payers.set(pk, (p.payers.get(pk) ?? 0) + 1);
    const since = (m: string) => {
      const k = `${dim}|${key}|${m}|${d}`;
      p.payersSince.set(k, (p.payersSince.get(k) ?? 0) + 1);
    };
    if (i === 0) since(NO_PREVIOUS_DAY);
    else for (let m = periodStart(d, 'month'); m > before; m = periodStart(addDays(m, -1), 'month')) since(m);
  });
  // The cohort: the month of the first purchase; each month a cover overlaps, and the month's income.
  const cohort = periodStart(boughtDays[0]!, 'month');
  const cell = (month: string) => {
    const k = `${dim}|${key}|${cohort}|${month}`;
    let piece = p.cohorts.get(k);
    if (!piece) p.cohorts.set(k, (piece = { members: 0, active: 0, incomeCents: 0 }));
    return piece;
  };
  cell(cohort).members += 1;
  const months = new Set<string>();
  for (const r of cover) {
    const last = periodStart(nairobiDayOf(new Date(r.expiresAt.getTime() - 1)), 'month');
    for (let m = periodStart(nairobiDayOf(r.startsAt), 'month'); m <= last; m = nextPeriodStart(m, 'month')) {
      if (m >= cohort) months.add(m);
    }
  }
  for (const m of months) cell(m).active += 1;
  bought.forEach((r, i) => {
    cell(periodStart(boughtDays[i]!, 'month')).incomeCents += r.amountCents;
  });
  return runs;
}

/**
 * A subscriber's pieces, the cover rows to keep and the merged runs per split. `rows` are all of one
 * subscriber's tips subscriptions, refunded ones included (they add nothing).
 */
export function subscriberPieces(rows: readonly HistoryRow[], into: Pieces = emptyPieces()): { covers: CoverRow[]; intervals: IntervalRow[] } {
  const cover = rows.filter((r) => r.reversedAt === null);
  if (cover.length === 0) return { covers: [], intervals: [] };
  const subscriberId = cover[0]!.subscriberId;
  const first = [...cover].sort(byBought)[0]!;
  const channel = first.channel;
  const lags = renewalLags(cover);
  const intervals: IntervalRow[] = [];
  const group = (dim: RetentionDim, key: string, part: readonly HistoryRow[]) => {
    const runs = addGroup(into, dim, key, part, lags);
    runs.forEach((run, i) =>
      intervals.push({ subscriberId, dim, key, startsAt: run.startsAt, endsAt: run.endsAt, nextStartsAt: runs[i + 1]?.startsAt ?? null }),
    );
  };
  group('all', 'all', cover);
  group('channel', channel, cover);
  for (const key of new Set(cover.map((r) => categoryKey(r.categoryId)))) {
    group('category', key, cover.filter((r) => categoryKey(r.categoryId) === key));
  }
  for (const key of new Set(cover.map((r) => mediumKey(r.medium)))) {
    group('medium', key, cover.filter((r) => mediumKey(r.medium) === key));
  }
  return { covers: cover.map((r) => ({ ...r, channel, renewalLagMs: lags.get(r.id) ?? null })), intervals };
}

/** new − old, piece by piece (what a change adds to the summaries); zero pieces left out. */
export function piecesDelta(next: Pieces, old: Pieces): Pieces {
  const out = emptyPieces();
  const numbers = (a: Map<string, number>, b: Map<string, number>, to: Map<string, number>) => {
    for (const k of new Set([...a.keys(), ...b.keys()])) {
      const d = (a.get(k) ?? 0) - (b.get(k) ?? 0);
      if (d !== 0) to.set(k, d);
    }
  };
  numbers(next.ends, old.ends, out.ends);
  numbers(next.payers, old.payers, out.payers);
  numbers(next.payersSince, old.payersSince, out.payersSince);
  for (const k of new Set([...next.days.keys(), ...old.days.keys()])) {
    const a = next.days.get(k) ?? zeroDay();
    const b = old.days.get(k) ?? zeroDay();
    const d = zeroDay();
    let any = false;
    for (const f of Object.keys(d) as (keyof DayPiece)[]) {
      d[f] = a[f] - b[f];
      if (d[f] !== 0) any = true;
    }
    if (any) out.days.set(k, d);
  }
  for (const k of new Set([...next.cohorts.keys(), ...old.cohorts.keys()])) {
    const a = next.cohorts.get(k) ?? { members: 0, active: 0, incomeCents: 0 };
    const b = old.cohorts.get(k) ?? { members: 0, active: 0, incomeCents: 0 };
    const d = { members: a.members - b.members, active: a.active - b.active, incomeCents: a.incomeCents - b.incomeCents };
    if (d.members || d.active || d.incomeCents) out.cohorts.set(k, d);
  }
  return out;
}
