import {
  addDays,
  centsToKes,
  nairobiDayOf,
  nairobiDayStart,
  periodsOf,
  periodStart,
  type ReportGroup,
  type ReportPeriod,
  type RetentionFigures,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import {
  churnSinceMidnight,
  cohortCells,
  distinctPayers,
  firstPurchaseMonths,
  liveChurned,
  recentEnds,
  retentionDayRows,
  retentionEndRows,
  type RetentionDayRow,
} from './queries.ts';
import { NO_CHURN, NOT_ENOUGH_HISTORY, type CohortRow } from './retention-formulas.ts';
import type { RetentionDim } from './retention-summary.ts';

/**
 * The retention figures read from the summaries (decision 043): the same numbers as
 * retention-formulas.ts gives on the stored history (test/reports/retention-summary.test.ts holds
 * them equal), from a few hundred day rows per split key instead of every subscription.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const ratio = (a: number, b: number) => (b === 0 ? null : a / b);
const nextStart = (start: string, g: ReportGroup) =>
  g === 'day' ? addDays(start, 1) : g === 'week' ? addDays(start, 7) : periodStart(addDays(start, 31), 'month');
const lastDay = (start: string, g: ReportGroup) => addDays(nextStart(start, g), -1);
const previous = (p: { period: string }, g: ReportGroup) => {
  const to = addDays(p.period, -1);
  return { from: periodStart(to, g), to };
};

interface Range {
  from: string;
  to: string;
  group: ReportGroup;
  periods: ReportPeriod[];
}

interface PeriodNumbers {
  ended: number;
  renewed: number;
  active: number;
  churned: number;
  income: number;
  paying: number;
  retained: number;
  base: number;
}

type Column = 'income_cents' | 'retained_day_cents' | 'retained_week_cents' | 'retained_month_cents' | 'cover';

/** The days from `first` to `last`, each with its index: sums over day ranges by prefix sums. */
class DayIndex {
  readonly days: string[] = [];
  readonly index = new Map<string, number>();
  constructor(first: string, last: string) {
    for (let d = first; d <= last; d = addDays(d, 1)) {
      this.index.set(d, this.days.length);
      this.days.push(d);
    }
  }
}

/** A split key's day rows, with sums over day ranges and the active count at a midnight. */
class KeyDays {
  private readonly byDay = new Map<string, RetentionDayRow>();
  private readonly prefix = new Map<Column, Float64Array>();
  constructor(
    rows: RetentionDayRow[],
    private readonly at: DayIndex,
    private readonly activeBefore: number,
  ) {
    for (const r of rows) this.byDay.set(r.day, r);
  }
  private prefixOf(c: Column): Float64Array {
    let p = this.prefix.get(c);
    if (p) return p;
    p = new Float64Array(this.at.days.length + 1);
    this.at.days.forEach((d, i) => {
      const r = this.byDay.get(d);
      p![i + 1] = p![i]! + (r ? Number(c === 'cover' ? r.cover_in - r.cover_out : r[c]) : 0);
    });
    this.prefix.set(c, p);
    return p;
  }
  /** The sum of a column over the days [from, to] (clipped to the days read). */
  sum(from: string, to: string, c: Column): number {
    const p = this.prefixOf(c);
    const i = this.at.index.get(from) ?? (from < this.at.days[0]! ? 0 : this.at.days.length);
    const j = this.at.index.get(to) ?? (to < this.at.days[0]! ? -1 : this.at.days.length - 1);
    return j < i ? 0 : p[j + 1]! - p[i]!;
  }
  /** Subscribers covered at the midnight starting `day`. */
  activeAt(day: string): number {
    return this.activeBefore + this.sum(this.at.days[0]!, day, 'cover');
  }
  payersOf(day: string, g: ReportGroup): number {
    const r = this.byDay.get(day);
    if (!r) return 0;
    return Number(g === 'day' ? r.payers_day : g === 'week' ? r.payers_week : r.payers_month);
  }
  churnOf(day: string, g: ReportGroup): number {
    const r = this.byDay.get(day);
    if (!r) return 0;
    return Number(g === 'day' ? r.churn_day : g === 'week' ? r.churn_week : r.churn_month);
  }
  /** Churn of the calendar period starting `start` so far, at the midnight starting `day` inside it. */
  churnSoFar(start: string, day: string, g: ReportGroup): number {
    if (g === 'day') return 0;
    let n = 0;
    for (let d = addDays(start, 1); d <= day; d = addDays(d, 1)) {
      const r = this.byDay.get(d);
      if (r) n += Number(g === 'week' ? r.churn_so_far_week : r.churn_so_far_month);
    }
    return n;
  }
}

const retainedColumn = (g: ReportGroup): Column => (g === 'day' ? 'retained_day_cents' : g === 'week' ? 'retained_week_cents' : 'retained_month_cents');

/** The six whole months before the month of `to` (lifetime value). */
function sixMonthsBefore(to: string): ReportPeriod[] {
  const thisMonth = periodStart(to, 'month');
  let first = periodStart(addDays(thisMonth, -1), 'month');
  for (let i = 1; i < 6; i += 1) first = periodStart(addDays(first, -1), 'month');
  return periodsOf(first, addDays(thisMonth, -1), 'month');
}

/** Every figure of a split (dim), per key, over a range. */
export async function summaryFigures(db: Queryable, dim: RetentionDim, range: Range, graceDays: number, now: Date): Promise<Map<string, RetentionFigures>> {
  const ltvMonths = sixMonthsBefore(range.to);
  const firstPrevious = previous(range.periods[0]!, range.group);
  const first = [ltvMonths[0]!.from, firstPrevious.from].sort()[0]!;
  // The day after the range too: the churn so far of a period clipped at the range's end reaches its midnight.
  const last = addDays(range.to, 1);
  const { days, activeBefore } = await retentionDayRows(db, dim, first, last);
  const at = new DayIndex(first, last);
  const grouped = new Map<string, RetentionDayRow[]>();
  for (const r of days) {
    const list = grouped.get(r.key);
    if (list) list.push(r);
    else grouped.set(r.key, [r]);
  }
  const keys = new Set([...grouped.keys(), ...activeBefore.keys()]);
  const perKey = new Map([...keys].map((k) => [k, new KeyDays(grouped.get(k) ?? [], at, activeBefore.get(k) ?? 0)]));

  // Ended and renewed: whole days whose grace has passed from the day rows, the rest from the covers.
  const graceMs = graceDays * DAY_MS;
  const settledBefore = nairobiDayOf(new Date(now.getTime() - graceMs));
  const endDays = new Map<string, Map<string, { ended: number; renewed: number }>>();
  for (const r of await retentionEndRows(db, dim, range.from, range.to, graceDays)) {
    if (r.day >= settledBefore) continue;
    let m = endDays.get(r.key);
    if (!m) endDays.set(r.key, (m = new Map()));
    m.set(r.day, { ended: Number(r.ended), renewed: Number(r.renewed) });
  }

  // Distinct payers: of a whole calendar period from the day rows; of the whole range and of a
  // clipped period from the purchases counted since a month start.
  const payerRanges = [...range.periods, { from: range.from, to: range.to }, ...ltvMonths];
  const payerGroup = (i: number): ReportGroup => (i < range.periods.length ? range.group : 'month');
  const calendar = (i: number) => {
    const p = payerRanges[i]!;
    return i !== range.periods.length && 'period' in p && p.from === p.period && p.to === lastDay(p.period, payerGroup(i));
  };
  const asked = payerRanges.map((r, i) => ({ ...r, i })).filter((r) => !calendar(r.i));
  const payers = new Map<string, number[]>();
  for (const r of await distinctPayers(db, dim, asked.map(({ from, to }) => ({ from, to, month: periodStart(from, 'month') })))) {
    const list = payers.get(r.key) ?? new Array<number>(payerRanges.length).fill(0);
    list[asked[r.i]!.i] = Number(r.n);
    payers.set(r.key, list);
  }
  for (const k of payers.keys()) if (!perKey.has(k)) perKey.set(k, new KeyDays([], at, 0));

  // Churn of a period that is not a whole calendar one over by now. From a calendar period's start:
  // its churn so far at the last midnight, and the change since from the runs starting or ending
  // after it; from a clipped start, from the merged covers.
  const live = new Map<number, Map<string, number>>();
  const sinceMidnight = new Map<number, { start: string; midnight: string; change: Map<string, number> }>();
  const churnPeriods = [...range.periods.map((p) => ({ p, g: range.group })), ...ltvMonths.map((p) => ({ p, g: 'month' as ReportGroup }))];
  for (const [i, { p, g }] of churnPeriods.entries()) {
    const end = nairobiDayStart(addDays(p.to, 1));
    const whole = p.from === p.period && p.to === lastDay(p.period, g) && end.getTime() <= now.getTime();
    if (whole) continue;
    const start = nairobiDayStart(p.from);
    const until = new Date(Math.min(end.getTime(), now.getTime()));
    if (p.from === p.period && until.getTime() > start.getTime()) {
      const midnight = nairobiDayOf(until);
      const found = await churnSinceMidnight(db, dim, start, nairobiDayStart(midnight), until);
      sinceMidnight.set(i, { start: p.from, midnight, change: new Map(found.map((r) => [r.key, Number(r.n)])) });
      continue;
    }
    live.set(i, new Map((await liveChurned(db, dim, start, until)).map((r) => [r.key, Number(r.n)])));
  }
  // Ends in the days whose grace has not passed for all of them.
  const recent = new Map<number, Map<string, { ended: number; renewed: number }>>();
  for (const [i, p] of range.periods.entries()) {
    if (addDays(p.to, 1) <= settledBefore) continue;
    const start = nairobiDayStart(p.from < settledBefore ? settledBefore : p.from);
    const found = await recentEnds(db, dim, start, nairobiDayStart(addDays(p.to, 1)), graceMs, now);
    recent.set(i, new Map(found.map((r) => [r.key, { ended: Number(r.ended), renewed: Number(r.renewed) }])));
  }
  const firstMonths = new Map((await firstPurchaseMonths(db, dim)).map((r) => [r.key, r.month]));

  const out = new Map<string, RetentionFigures>();
  for (const [key, kd] of perKey) {
    const numbers = (p: ReportPeriod, g: ReportGroup, i: number, payerIndex: number): PeriodNumbers => {
      let ended = 0;
      let renewed = 0;
      if (g === range.group && i < range.periods.length) {
        const ends = endDays.get(key);
        for (let d = p.from; d <= p.to; d = addDays(d, 1)) {
          const e = ends?.get(d);
          if (e) {
            ended += e.ended;
            renewed += e.renewed;
          }
        }
        const r = recent.get(i)?.get(key);
        if (r) {
          ended += r.ended;
          renewed += r.renewed;
        }
      }
      const prev = previous(p, g);
      const soFar = sinceMidnight.get(i);
      const churned = live.has(i)
        ? (live.get(i)!.get(key) ?? 0)
        : soFar
          ? kd.churnSoFar(soFar.start, soFar.midnight, g) + (soFar.change.get(key) ?? 0)
          : kd.churnOf(p.period, g);
      return {
        ended,
        renewed,
        active: kd.activeAt(p.from),
        churned,
        income: kd.sum(p.from, p.to, 'income_cents'),
        paying: calendar(payerIndex) ? kd.payersOf(p.period, g) : (payers.get(key)?.[payerIndex] ?? 0),
        retained: kd.sum(p.from, p.to, retainedColumn(g)),
        base: kd.sum(prev.from, prev.to, 'income_cents'),
      };
    };
    const per = range.periods.map((p, i) => numbers(p, range.group, i, i));
    const total = (k: keyof PeriodNumbers) => per.reduce((s, f) => s + f[k], 0);
    const wholeIncome = per.reduce((s, f) => s + f.income, 0);
    const wholePaying = payers.get(key)?.[range.periods.length] ?? 0;
    const arpu = ratio(wholeIncome, wholePaying);

    let ltv: { cents: number | null; note: string | null };
    const earliest = firstMonths.get(key);
    if (earliest === undefined || earliest > ltvMonths[0]!.period) ltv = { cents: null, note: NOT_ENOUGH_HISTORY };
    else {
      const months = ltvMonths.map((m, j) => numbers(m, 'month', range.periods.length + j, range.periods.length + 1 + j));
      const income = months.reduce((s, f) => s + f.income, 0);
      const paying = months.reduce((s, f) => s + f.paying, 0);
      const avgChurn = months.reduce((s, f) => s + (ratio(f.churned, f.active) ?? 0), 0) / months.length;
      ltv = paying === 0 || avgChurn === 0 ? { cents: null, note: NO_CHURN } : { cents: Math.round(income / paying / avgChurn), note: null };
    }
    out.set(key, {
      renewal_rate: ratio(total('renewed'), total('ended')),
      churn_rate: ratio(total('churned'), total('active')),
      churned: total('churned'),
      net_revenue_retention: ratio(total('retained'), total('base')),
      arpu: arpu === null ? null : centsToKes(Math.round(arpu)),
      ltv: ltv.cents === null ? null : centsToKes(ltv.cents),
      ltv_note: ltv.note,
      periods: range.periods.map((p, i) => {
        const f = per[i]!;
        const a = ratio(f.income, f.paying);
        return {
          period: p.period,
          from: p.from,
          to: p.to,
          ended: f.ended,
          renewed: f.renewed,
          renewal_rate: ratio(f.renewed, f.ended),
          active_at_start: f.active,
          churned: f.churned,
          churn_rate: ratio(f.churned, f.active),
          income: centsToKes(f.income),
          paying: f.paying,
          arpu: a === null ? null : centsToKes(Math.round(a)),
          net_revenue_retention: ratio(f.retained, f.base),
        };
      }),
    });
  }
  return out;
}

/** An empty grid over a range's months. */
export function summaryCohortsEmpty(range: { from: string; to: string }): CohortRow[] {
  const months = periodsOf(periodStart(range.from, 'month'), range.to, 'month').map((m) => m.period);
  return months.map((month) => ({
    month,
    size: 0,
    income_cents: 0,
    cells: months.filter((m) => m >= month).map((m, offset) => ({ offset, month: m, active: 0, share: null, income_cents: 0 })),
  }));
}

/** The cohort grid of a split, per key. */
export async function summaryCohorts(db: Queryable, dim: RetentionDim, range: { from: string; to: string }): Promise<Map<string, CohortRow[]>> {
  const found = await cohortCells(db, dim, periodStart(range.from, 'month'), range.to);
  const byKey = new Map<string, CohortRow[]>();
  for (const r of found) {
    let grid = byKey.get(r.key);
    if (!grid) byKey.set(r.key, (grid = summaryCohortsEmpty(range)));
    const cohort = grid.find((c) => c.month === r.cohort);
    const cell = cohort?.cells.find((c) => c.month === r.month);
    if (!cohort || !cell) continue;
    cohort.size += Number(r.members);
    cell.active += Number(r.active);
    cell.income_cents += Number(r.income_cents);
    cohort.income_cents += Number(r.income_cents);
  }
  for (const grid of byKey.values()) {
    for (const c of grid) for (const cell of c.cells) cell.share = ratio(cell.active, c.size);
  }
  return byKey;
}
