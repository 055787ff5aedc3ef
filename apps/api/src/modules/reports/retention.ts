import {
  addDays,
  centsToKes,
  FIRST_CHANNEL_LABELS,
  nairobiRange,
  periodStart,
  RETENTION_FORMULAS,
  type CohortQuery,
  type RetentionQuery,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { CsvTable } from '../../http/csv.ts';
import { getSetting } from '../settings/service.ts';
import { resolveRange } from './periods.ts';
import { catalogueNames, subscriberHistoryRows } from './queries.ts';
import { channelOf, cohortGrid, retentionFigures, type HistoryRow } from './retention-formulas.ts';

/**
 * The whole history of every tips subscriber with a cover ending on or after `since` and bought
 * before `end`: classifying a purchase (new, renewal, comeback) and a cohort needs the subscriber's
 * earlier purchases too. The inner condition is a range on `expires_at` (subscriptions_expires_idx);
 * the outer look-up per subscriber goes through subscriptions_subscriber_idx.
 */
export async function historyOf(db: Queryable, since: Date, end: Date): Promise<HistoryRow[]> {
  const found = await subscriberHistoryRows(db, since, end);
  return found.map((r) => ({
    id: Number(r.id),
    subscriberId: Number(r.subscriber_id),
    categoryId: r.bet_category_id === null ? null : Number(r.bet_category_id),
    medium: r.medium,
    source: r.source,
    amountCents: Number(r.amount_cents),
    createdAt: new Date(r.created_at),
    startsAt: new Date(r.starts_at),
    expiresAt: new Date(r.expires_at),
    reversedAt: r.reversed_at === null ? null : new Date(r.reversed_at),
  }));
}

/** Seven months before the range: the six whole months lifetime value reads, and the period before the first. */
function historyStart(from: string): Date {
  let month = periodStart(from, 'month');
  for (let i = 0; i < 7; i += 1) month = periodStart(addDays(month, -1), 'month');
  return nairobiRange({ from: month }).start!;
}

/** Split a history by category, medium, or the channel of each subscriber's first purchase. */
async function splitOf(db: Queryable, history: HistoryRow[], by: NonNullable<RetentionQuery['group_by']>) {
  const groups = new Map<string, { label: string; rows: HistoryRow[] }>();
  const add = (key: string, label: string, r: HistoryRow) => {
    const g = groups.get(key);
    if (g) g.rows.push(r);
    else groups.set(key, { label, rows: [r] });
  };
  if (by === 'category') {
    const names = await catalogueNames(db);
    for (const r of history) {
      const key = r.categoryId === null ? 'none' : String(r.categoryId);
      add(key, r.categoryId === null ? 'No category' : (names.categories.get(r.categoryId) ?? `Category ${r.categoryId}`), r);
    }
  } else if (by === 'medium') {
    for (const r of history) add(r.medium ?? 'none', r.medium === 'web' ? 'Web' : r.medium === 'sms' ? 'SMS' : 'No medium', r);
  } else {
    const first = new Map<number, HistoryRow>();
    for (const r of [...history].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)) {
      if (r.reversedAt === null && !first.has(r.subscriberId)) first.set(r.subscriberId, r);
    }
    for (const r of history) {
      const f = first.get(r.subscriberId);
      if (!f) continue; // everything they bought was refunded: no first purchase
      const channel = channelOf(f.source);
      add(channel, FIRST_CHANNEL_LABELS[channel], r);
    }
  }
  return [...groups].map(([key, g]) => ({ key, ...g })).sort((a, b) => a.label.localeCompare(b.label));
}

export async function retentionReport(db: Queryable, q: RetentionQuery, now = new Date()) {
  const range = resolveRange(q);
  const graceDays = await getSetting(db, 'retention_grace_days');
  const history = await historyOf(db, historyStart(range.from), nairobiRange({ to: range.to }).end!);
  const groups = q.group_by ? await splitOf(db, history, q.group_by) : [];
  return {
    from: range.from,
    to: range.to,
    group: range.group,
    grace_days: graceDays,
    formulas: { ...RETENTION_FORMULAS },
    ...retentionFigures(history, range, graceDays, now),
    groups: groups.map((g) => ({ key: g.key, label: g.label, ...retentionFigures(g.rows, range, graceDays, now) })),
  };
}

export async function cohortsReport(db: Queryable, q: CohortQuery) {
  const range = resolveRange({ from: q.from, to: q.to, group: 'month' });
  const { start } = nairobiRange({ from: periodStart(range.from, 'month') });
  const history = await historyOf(db, start!, nairobiRange({ to: range.to }).end!);
  return {
    from: range.from,
    to: range.to,
    by: q.by,
    formula: RETENTION_FORMULAS.cohorts,
    cohorts: cohortGrid(history, range).map((c) => ({
      month: c.month,
      size: c.size,
      income: centsToKes(c.income_cents),
      cells: c.cells.map((cell) => ({ offset: cell.offset, month: cell.month, active: cell.active, share: cell.share, income: centsToKes(cell.income_cents) })),
    })),
  };
}

const percent = (r: number | null) => (r === null ? '' : (r * 100).toFixed(1));

type RetentionCsvRow = Awaited<ReturnType<typeof retentionReport>>['periods'][number] & { group: string };

export async function retentionCsv(db: Queryable, q: RetentionQuery): Promise<CsvTable<RetentionCsvRow>> {
  const report = await retentionReport(db, q);
  const lines = [
    ...report.periods.map((p) => ({ ...p, group: 'All' })),
    ...report.groups.flatMap((g) => g.periods.map((p) => ({ ...p, group: g.label }))),
  ];
  return {
    filename: `report-retention-by-${report.group}`,
    columns: [
      { header: 'Group', value: (r) => r.group },
      { header: 'Period', value: (r) => r.period },
      { header: 'From', value: (r) => r.from },
      { header: 'To', value: (r) => r.to },
      { header: 'Ended', value: (r) => r.ended },
      { header: 'Renewed', value: (r) => r.renewed },
      { header: 'Renewal rate %', value: (r) => percent(r.renewal_rate) },
      { header: 'Active at start', value: (r) => r.active_at_start },
      { header: 'Churned', value: (r) => r.churned },
      { header: 'Churn rate %', value: (r) => percent(r.churn_rate) },
      { header: 'Income (KES)', value: (r) => r.income.toFixed(2) },
      { header: 'Paying subscribers', value: (r) => r.paying },
      { header: 'ARPU (KES)', value: (r) => (r.arpu === null ? '' : r.arpu.toFixed(2)) },
      { header: 'Net revenue retention %', value: (r) => percent(r.net_revenue_retention) },
    ],
    rows: [lines],
  };
}

type CohortCsvRow = { cohort: string; size: number; month: string; offset: number; active: number; share: number | null; income: number };

export async function cohortsCsv(db: Queryable, q: CohortQuery): Promise<CsvTable<CohortCsvRow>> {
  const report = await cohortsReport(db, q);
  return {
    filename: 'report-cohorts',
    columns: [
      { header: 'Cohort', value: (r) => r.cohort },
      { header: 'Cohort size', value: (r) => r.size },
      { header: 'Month', value: (r) => r.month },
      { header: 'Months after', value: (r) => r.offset },
      { header: 'Active', value: (r) => r.active },
      { header: 'Active %', value: (r) => percent(r.share) },
      { header: 'Income (KES)', value: (r) => r.income.toFixed(2) },
    ],
    rows: [report.cohorts.flatMap((c) => c.cells.map((cell) => ({ cohort: c.month, size: c.size, ...cell })))],
  };
}
