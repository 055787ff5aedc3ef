import {
  addDays,
  centsToKes,
  nairobiDayOf,
  nairobiRange,
  periodsOf,
  periodStart,
  type FirstChannel,
  type ReportGroup,
  type ReportPeriod,
  type RetentionFigures,
  type RetentionPeriod,
} from '@betdesk/contract';
import type { StkOrigin } from '../../db/schema/mpesa.ts';

/**
 * The retention formulas of docs/BUSINESS-RULES.md ("Retention figures"), as pure functions of a
 * history of tips subscriptions: the report reads the rows, these turn them into figures, and the
 * unit tests pin each formula on a hand-made history without a database.
 */

export interface HistoryRow {
  id: number;
  subscriberId: number;
  categoryId: number | null;
  medium: 'sms' | 'web' | null;
  /** subscriptions.source: how it was paid. */
  source: 'mpesa' | 'stk' | 'manual' | 'balance' | 'ratiba';
  /** How this purchase reached the business (channelOf its source and, for an STK push, where it was asked). */
  channel: FirstChannel;
  amountCents: number;
  createdAt: Date;
  startsAt: Date;
  expiresAt: Date;
  /** Refunded (its payment unclaimed): never cover, never income. */
  reversedAt: Date | null;
}

export const EVENT_KINDS = ['new', 'renewal', 'reactivation', 'expiry', 'refund'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface SubscriptionEvent {
  kind: EventKind;
  at: Date;
  subscriberId: number;
  subscriptionId: number;
  amountCents: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const lineOf = (r: HistoryRow) => `${r.subscriberId}:${r.categoryId ?? '-'}:${r.medium ?? '-'}`;
const byBought = (a: HistoryRow, b: HistoryRow) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id;

/**
 * The channel of a subscription's payment, as the report splits by it: an STK push by where it was
 * asked (staff's "Request payment" is `stk`; one of a punter's own pushes from before origins were
 * kept, whose origin is null, counts as `stk` too), a Ratiba run as `ratiba`, a paybill payment as
 * `paybill`, a hand-recorded one as `staff`.
 */
export function channelOf(source: HistoryRow['source'], origin: StkOrigin | null): FirstChannel {
  if (source === 'mpesa') return 'paybill';
  if (source === 'manual') return 'staff';
  if (source === 'stk') return origin === null || origin === 'staff' ? 'stk' : origin;
  return source;
}

/**
 * The subscription that carried `s` on, if any: another of the same subscriber, category and medium,
 * bought after it and by its end plus the grace, that runs past its end (an early renewal stacks
 * after the end, so it counts; one bought after the grace is a reactivation, not a renewal).
 */
function followUp(s: HistoryRow, line: readonly HistoryRow[], graceDays: number): HistoryRow | undefined {
  const deadline = s.expiresAt.getTime() + graceDays * DAY_MS;
  return line.find(
    (f) =>
      f !== s &&
      f.reversedAt === null &&
      byBought(f, s) > 0 &&
      f.createdAt.getTime() <= deadline &&
      f.expiresAt.getTime() > s.expiresAt.getTime(),
  );
}

function linesOf(rows: readonly HistoryRow[]): Map<string, HistoryRow[]> {
  const lines = new Map<string, HistoryRow[]>();
  for (const r of [...rows].sort(byBought)) {
    const key = lineOf(r);
    const line = lines.get(key);
    if (line) line.push(r);
    else lines.set(key, [r]);
  }
  return lines;
}

/**
 * The subscription event log of one history, oldest first. Per subscriber, category and medium:
 * the first purchase is `new`; one bought while the previous cover ran or within the grace after it
 * is a `renewal`; one bought later is a `reactivation`; a cover that ended with nothing bought by
 * its end plus the grace (both before `now`) is an `expiry`, dated at its end; a reversed purchase is a `refund` (at its
 * reversal) and is no cover.
 */
export function eventLog(rows: readonly HistoryRow[], graceDays: number, now: Date): SubscriptionEvent[] {
  const events: SubscriptionEvent[] = [];
  const ev = (kind: EventKind, at: Date, r: HistoryRow) =>
    events.push({ kind, at, subscriberId: r.subscriberId, subscriptionId: r.id, amountCents: r.amountCents });
  for (const line of linesOf(rows).values()) {
    let coverEnd: number | null = null;
    for (const r of line) {
      if (r.reversedAt !== null) {
        ev('refund', r.reversedAt, r);
        continue;
      }
      if (coverEnd === null) ev('new', r.createdAt, r);
      else if (r.createdAt.getTime() <= coverEnd + graceDays * DAY_MS) ev('renewal', r.createdAt, r);
      else ev('reactivation', r.createdAt, r);
      coverEnd = Math.max(coverEnd ?? 0, r.expiresAt.getTime());
      // Only once the grace has passed: until then a renewal may still come.
      if (r.expiresAt.getTime() + graceDays * DAY_MS <= now.getTime() && !followUp(r, line, graceDays)) ev('expiry', r.expiresAt, r);
    }
  }
  return events.sort((a, b) => a.at.getTime() - b.at.getTime() || a.subscriptionId - b.subscriptionId);
}

interface Bounds {
  start: number;
  end: number;
}

function boundsOf(p: { from: string; to: string }): Bounds {
  const { start, end } = nairobiRange(p);
  return { start: start!.getTime(), end: end!.getTime() };
}

/** Subscribers with a cover running at instant t. */
function activeAt(rows: readonly HistoryRow[], t: number): Set<number> {
  const out = new Set<number>();
  for (const r of rows) if (r.startsAt.getTime() <= t && r.expiresAt.getTime() > t) out.add(r.subscriberId);
  return out;
}

/** Income (cents) per subscriber of the purchases made in [start, end). */
function incomeIn(rows: readonly HistoryRow[], b: Bounds): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of rows) {
    const t = r.createdAt.getTime();
    if (t >= b.start && t < b.end) out.set(r.subscriberId, (out.get(r.subscriberId) ?? 0) + r.amountCents);
  }
  return out;
}

const sum = (m: Map<number, number>) => [...m.values()].reduce((s, v) => s + v, 0);
const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

/** The period just before `p` (whole, not clipped): the base of its net revenue retention. */
function previousPeriod(p: ReportPeriod, group: ReportGroup): { from: string; to: string } {
  const to = addDays(p.period, -1);
  return { from: periodStart(to, group), to };
}

export interface PeriodFigures extends Omit<RetentionPeriod, 'income' | 'arpu'> {
  income_cents: number;
  arpu_cents: number | null;
  /** Income this period from last period's payers, and what they paid last period (the NRR parts). */
  retained_cents: number;
  base_cents: number;
}

/** Every figure of one period of a history. */
export function periodFigures(rows: readonly HistoryRow[], p: ReportPeriod, group: ReportGroup, graceDays: number, now: Date): PeriodFigures {
  const cover = rows.filter((r) => r.reversedAt === null);
  const b = boundsOf(p);
  const nowMs = now.getTime();
  const lines = linesOf(cover);

  let ended = 0;
  let renewed = 0;
  for (const line of lines.values()) {
    for (const s of line) {
      const end = s.expiresAt.getTime();
      if (end < b.start || end >= b.end || end + graceDays * DAY_MS > nowMs) continue;
      ended += 1;
      if (followUp(s, line, graceDays)) renewed += 1;
    }
  }

  const atStart = activeAt(cover, b.start);
  const atEnd = activeAt(cover, Math.min(b.end, nowMs));
  const churned = [...atStart].filter((id) => !atEnd.has(id)).length;

  const income = incomeIn(cover, b);
  const incomeCents = sum(income);
  const base = incomeIn(cover, boundsOf(previousPeriod(p, group)));
  let retained = 0;
  for (const id of base.keys()) retained += income.get(id) ?? 0;
  const baseCents = sum(base);
  const arpu = ratio(incomeCents, income.size);

  return {
    period: p.period,
    from: p.from,
    to: p.to,
    ended,
    renewed,
    renewal_rate: ratio(renewed, ended),
    active_at_start: atStart.size,
    churned,
    churn_rate: ratio(churned, atStart.size),
    income_cents: incomeCents,
    paying: income.size,
    arpu_cents: arpu === null ? null : Math.round(arpu),
    net_revenue_retention: ratio(retained, baseCents),
    retained_cents: retained,
    base_cents: baseCents,
  };
}

export const NOT_ENOUGH_HISTORY = 'Not enough history: lifetime value needs six months of subscriptions';
export const NO_CHURN = 'No churn in the last six months: lifetime value cannot be estimated';

/**
 * Lifetime value: the monthly ARPU of the six whole months before the month of `to` (their income
 * over the sum of their monthly paying subscribers), divided by their average monthly churn rate (a
 * month with nobody active at its start counts as 0). Null with the reason when the history starts
 * after the first of those months or nobody churned.
 */
export function lifetimeValue(rows: readonly HistoryRow[], to: string, now: Date): { ltv_cents: number | null; note: string | null } {
  const thisMonth = periodStart(to, 'month');
  let first = periodStart(addDays(thisMonth, -1), 'month');
  for (let i = 1; i < 6; i += 1) first = periodStart(addDays(first, -1), 'month');
  const sixMonths = periodsOf(first, addDays(thisMonth, -1), 'month');
  const cover = rows.filter((r) => r.reversedAt === null);
  const earliest = Math.min(...cover.map((r) => r.createdAt.getTime()));
  // Six months of history: the first of them must have seen a purchase (or an earlier one).
  if (!Number.isFinite(earliest) || earliest >= boundsOf(sixMonths[0]!).end) return { ltv_cents: null, note: NOT_ENOUGH_HISTORY };
  const figures = sixMonths.map((m) => periodFigures(cover, m, 'month', 0, now));
  const income = figures.reduce((s, f) => s + f.income_cents, 0);
  const paying = figures.reduce((s, f) => s + f.paying, 0);
  const churnRates = figures.map((f) => f.churn_rate ?? 0);
  const avgChurn = churnRates.reduce((s, c) => s + c, 0) / churnRates.length;
  if (paying === 0 || avgChurn === 0) return { ltv_cents: null, note: NO_CHURN };
  return { ltv_cents: Math.round(income / paying / avgChurn), note: null };
}

/** The figures of a history over a range: per period, and over the whole range. */
export function retentionFigures(
  rows: readonly HistoryRow[],
  range: { from: string; to: string; group: ReportGroup; periods: ReportPeriod[] },
  graceDays: number,
  now: Date,
): RetentionFigures {
  const per = range.periods.map((p) => periodFigures(rows, p, range.group, graceDays, now));
  const total = (k: 'ended' | 'renewed' | 'churned' | 'active_at_start' | 'retained_cents' | 'base_cents') =>
    per.reduce((s, f) => s + f[k], 0);
  const whole = incomeIn(
    rows.filter((r) => r.reversedAt === null),
    boundsOf(range),
  );
  const arpu = ratio(sum(whole), whole.size);
  const ltv = lifetimeValue(rows, range.to, now);
  return {
    renewal_rate: ratio(total('renewed'), total('ended')),
    churn_rate: ratio(total('churned'), total('active_at_start')),
    churned: total('churned'),
    net_revenue_retention: ratio(total('retained_cents'), total('base_cents')),
    arpu: arpu === null ? null : centsToKes(Math.round(arpu)),
    ltv: ltv.ltv_cents === null ? null : centsToKes(ltv.ltv_cents),
    ltv_note: ltv.note,
    periods: per.map(({ income_cents, arpu_cents, retained_cents: _r, base_cents: _b, ...f }) => ({
      ...f,
      income: centsToKes(income_cents),
      arpu: arpu_cents === null ? null : centsToKes(arpu_cents),
    })),
  };
}

export interface CohortRow {
  month: string;
  size: number;
  income_cents: number;
  cells: { offset: number; month: string; active: number; share: number | null; income_cents: number }[];
}

/**
 * Monthly cohorts: the subscribers whose first (unrefunded) purchase was in each month of the
 * range, and for that month and each one after it up to the range's end, how many of them had a
 * cover running in it and the income they brought in it.
 */
export function cohortGrid(rows: readonly HistoryRow[], range: { from: string; to: string }): CohortRow[] {
  const cover = rows.filter((r) => r.reversedAt === null);
  const firstMonth = new Map<number, string>();
  for (const r of [...cover].sort(byBought)) {
    if (!firstMonth.has(r.subscriberId)) firstMonth.set(r.subscriberId, periodStart(nairobiDayOf(r.createdAt), 'month'));
  }
  const months = periodsOf(periodStart(range.from, 'month'), range.to, 'month');
  return months
    .filter((m) => m.period >= periodStart(range.from, 'month'))
    .map((cohort) => {
      const members = new Set([...firstMonth].filter(([, m]) => m === cohort.period).map(([id]) => id));
      const theirs = cover.filter((r) => members.has(r.subscriberId));
      const cells = months
        .filter((m) => m.period >= cohort.period)
        .map((m, offset) => {
          const b = boundsOf({ from: m.period, to: addDays(periodStart(addDays(m.period, 31), 'month'), -1) });
          const active = new Set(
            theirs.filter((r) => r.startsAt.getTime() < b.end && r.expiresAt.getTime() > b.start).map((r) => r.subscriberId),
          ).size;
          return { offset, month: m.period, active, share: ratio(active, members.size), income_cents: sum(incomeIn(theirs, b)) };
        });
      return { month: cohort.period, size: members.size, income_cents: cells.reduce((s, c) => s + c.income_cents, 0), cells };
    });
}
