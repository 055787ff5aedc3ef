import { defaultRange, periodsOf, periodStart, type ReportGroup, type ReportPeriod } from '@betdesk/contract';

export interface ResolvedRange {
  from: string;
  to: string;
  group: ReportGroup;
  periods: ReportPeriod[];
}

/** The report's days (defaults filled in) and its periods, each clipped to the range. */
export function resolveRange(q: { from?: string | undefined; to?: string | undefined; group?: ReportGroup | undefined }): ResolvedRange {
  const group = q.group ?? 'month';
  const { from, to } = defaultRange({ from: q.from, to: q.to, group });
  return { from, to, group, periods: periodsOf(from, to, group) };
}

/**
 * Rows keyed by day folded into the range's periods: `empty()` makes a period's accumulator and
 * `add` folds one day's row into it. Every period is present, in order, even when nothing happened.
 */
export function byPeriod<R extends { day: string }, A>(
  range: ResolvedRange,
  dayRows: readonly R[],
  empty: () => A,
  add: (acc: A, row: R) => void,
): (ReportPeriod & { acc: A })[] {
  const out = range.periods.map((p) => ({ ...p, acc: empty() }));
  const index = new Map(out.map((p, i) => [p.period, i]));
  for (const row of dayRows) {
    if (row.day < range.from || row.day > range.to) continue;
    const i = index.get(periodStart(row.day, range.group));
    if (i !== undefined) add(out[i]!.acc, row);
  }
  return out;
}

