import type { ReportQuery, SubscriberLine } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { CsvTable } from '../../http/csv.ts';
import { resolveRange } from './periods.ts';
import { catalogueNames, subscriptionsLapsed, subscriptionsMade } from './queries.ts';

const NO_CATEGORY = 'No category';

/**
 * Subscribers new, renewed and lapsed per bet category and period. Read from `subscriptions`
 * with range conditions that indexes serve (see queries.ts): per-category counts of distinct
 * people cannot be added up from daily summaries (a subscriber renewing on two days of one week
 * is one subscriber of that week).
 */
export async function subscribersReport(db: Queryable, q: ReportQuery) {
  const range = resolveRange(q);
  const [made, lapsed, names] = await Promise.all([
    subscriptionsMade(db, range, range.group),
    subscriptionsLapsed(db, range, range.group),
    catalogueNames(db),
  ]);
  const nameOf = (id: number | null) => (id === null ? NO_CATEGORY : (names.categories.get(id) ?? `Category ${id}`));
  const line = (id: number | null): SubscriberLine => ({ bet_category_id: id, category: nameOf(id), new: 0, renewed: 0, lapsed: 0 });

  const perPeriod = new Map(range.periods.map((p) => [p.period, new Map<number | null, SubscriberLine>()]));
  const totals = new Map<number | null, SubscriberLine>();
  const lineIn = (lines: Map<number | null, SubscriberLine>, id: number | null) => {
    let found = lines.get(id);
    if (!found) lines.set(id, (found = line(id)));
    return found;
  };
  for (const r of made) {
    const lines = perPeriod.get(r.period);
    if (!lines) continue;
    const l = lineIn(lines, r.bet_category_id);
    l.new += r.new;
    l.renewed += r.renewed;
    const t = lineIn(totals, r.bet_category_id);
    t.new += r.new;
    t.renewed += r.renewed;
  }
  for (const r of lapsed) {
    const lines = perPeriod.get(r.period);
    if (!lines) continue;
    lineIn(lines, r.bet_category_id).lapsed += r.n;
    lineIn(totals, r.bet_category_id).lapsed += r.n;
  }
  const byName = (a: SubscriberLine, b: SubscriberLine) => a.category.localeCompare(b.category);
  return {
    from: range.from,
    to: range.to,
    group: range.group,
    rows: range.periods.map((p) => {
      const lines = [...perPeriod.get(p.period)!.values()].sort(byName);
      return {
        ...p,
        lines,
        new: lines.reduce((s, l) => s + l.new, 0),
        renewed: lines.reduce((s, l) => s + l.renewed, 0),
        lapsed: lines.reduce((s, l) => s + l.lapsed, 0),
      };
    }),
    total: [...totals.values()].sort(byName),
  };
}

type SubscribersCsvRow = SubscriberLine & { period: string; from: string; to: string };

export async function subscribersCsv(db: Queryable, q: ReportQuery): Promise<CsvTable<SubscribersCsvRow>> {
  const report = await subscribersReport(db, q);
  const all = report.rows.flatMap((p) => p.lines.map((l) => ({ ...l, period: p.period, from: p.from, to: p.to })));
  return {
    filename: `report-subscribers-by-${report.group}`,
    columns: [
      { header: 'Period', value: (r) => r.period },
      { header: 'From', value: (r) => r.from },
      { header: 'To', value: (r) => r.to },
      { header: 'Bet category', value: (r) => r.category },
      { header: 'New', value: (r) => r.new },
      { header: 'Renewed', value: (r) => r.renewed },
      { header: 'Lapsed', value: (r) => r.lapsed },
    ],
    // A report's rows are bounded by its range cap: one batch.
    rows: [all],
  };
}
