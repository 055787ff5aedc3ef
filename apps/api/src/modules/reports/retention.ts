import {
  addDays,
  centsToKes,
  FIRST_CHANNEL_LABELS,
  nairobiRange,
  periodStart,
  RETENTION_FORMULAS,
  type CohortQuery,
  type FirstChannel,
  type RecoveryQuery,
  type RetentionFigures,
  type RetentionQuery,
  type RetentionSplit,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { CsvTable } from '../../http/csv.ts';
import * as recovery from '../recovery/service.ts';
import { trialFigures } from '../trials/service.ts';
import { getSetting } from '../settings/service.ts';
import { resolveRange } from './periods.ts';
import { catalogueNames, retentionKeysSince } from './queries.ts';
import { retentionFigures, type CohortRow } from './retention-formulas.ts';
import { summariseMarked } from './retention-summary-store.ts';
import { summaryCohorts, summaryCohortsEmpty, summaryFigures } from './retention-read.ts';
import { leverCohorts, leverFigures } from './retention-levers.ts';

/** Seven months before the range: the six whole months lifetime value reads, and the period before the first. */
function historyStart(from: string): string {
  let month = periodStart(from, 'month');
  for (let i = 0; i < 7; i += 1) month = periodStart(addDays(month, -1), 'month');
  return month;
}

/** How a split's keys are shown: category names, medium names, first-channel labels. */
async function splitLabeller(db: Queryable, by: RetentionSplit): Promise<(key: string) => string> {
  const names = by === 'category' ? await catalogueNames(db) : null;
  return (key: string) => {
    if (by === 'category') return key === 'none' ? 'No category' : (names!.categories.get(Number(key)) ?? `Category ${key}`);
    if (by === 'medium') return key === 'web' ? 'Web' : key === 'sms' ? 'SMS' : 'No medium';
    return FIRST_CHANNEL_LABELS[key as FirstChannel] ?? key;
  };
}

/** The keys and labels of a split that have a cover ending on or after seven months before the range. */
async function splitKeys(db: Queryable, by: RetentionSplit, from: string) {
  const found = (await retentionKeysSince(db, by, historyStart(from))).map((r) => r.key);
  const label = await splitLabeller(db, by);
  return found.map((key) => ({ key, label: label(key) })).sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * Brings the summaries up to date on `primary` (they are written as they are read), then answers
 * where the report reads: `reads` (the replica, decision 073), unless the summaries have just
 * changed, which the replica may not have yet.
 */
async function summarised(primary: Queryable, reads: Queryable): Promise<Queryable> {
  return (await summariseMarked(primary)) > 0 ? primary : reads;
}

/**
 * The recovery figures, split with the retention report's keys and labels: the channel split reads
 * the subscribers' first channel from the summaries, which are brought up to date first. Answers
 * the labels and where to read.
 */
async function recoveryLabels(primary: Queryable, reads: Queryable, q: RecoveryQuery) {
  if (!q.group_by) return { db: reads, label: undefined };
  const db = q.group_by === 'channel' ? await summarised(primary, reads) : reads;
  return { db, label: await splitLabeller(db, q.group_by) };
}

/** `reads`: where the figures are read (the replica); the summaries are brought up to date on `db`. */
export async function recoveryReport(db: Queryable, q: RecoveryQuery, reads: Queryable = db) {
  const { db: from, label } = await recoveryLabels(db, reads, q);
  return recovery.recoveryReport(from, q, label);
}

export async function recoveryCsv(db: Queryable, q: RecoveryQuery, reads: Queryable = db) {
  const { db: from, label } = await recoveryLabels(db, reads, q);
  return recovery.recoveryCsv(from, q, label);
}

export async function retentionReport(primary: Queryable, q: RetentionQuery, now = new Date(), reads: Queryable = primary) {
  const range = resolveRange(q);
  const db = await summarised(primary, reads);
  const graceDays = await getSetting(db, 'retention_grace_days');
  const all = await summaryFigures(db, 'all', range, graceDays, now);
  return {
    ...retentionHead(range, graceDays),
    ...(all.get('all') ?? emptyFigures(range, now)),
    groups: q.group_by === 'lever' ? await leverFigures(db, range, historyStart(range.from), graceDays, now) : await summarySplit(db, q.group_by, range, graceDays, now),
    // Free trials are no purchase (decision 089): none of the figures above counts them; here apart.
    trials: await trialFigures(reads, nairobiInstants(range)),
  };
}

/** The instants a report range of Nairobi days covers. */
function nairobiInstants(range: { from: string; to: string }): { start: Date; end: Date } {
  const { start, end } = nairobiRange(range);
  return { start: start!, end: end! };
}

function retentionHead(range: ReturnType<typeof resolveRange>, graceDays: number) {
  return { from: range.from, to: range.to, group: range.group, grace_days: graceDays, formulas: { ...RETENTION_FORMULAS } };
}

/** The figures split as the summaries keep them (none without a split). */
async function summarySplit(db: Queryable, by: RetentionSplit | undefined, range: ReturnType<typeof resolveRange>, graceDays: number, now: Date) {
  if (!by) return [];
  const groups = await splitKeys(db, by, range.from);
  const split = await summaryFigures(db, by, range, graceDays, now);
  return groups.map((g) => ({ ...g, ...(split.get(g.key) ?? emptyFigures(range, now)) }));
}

/** Figures of a split key with no summarised subscription. */
function emptyFigures(range: Parameters<typeof retentionFigures>[1], now: Date): RetentionFigures {
  return retentionFigures([], range, 0, now);
}

export async function cohortsReport(primary: Queryable, q: CohortQuery, reads: Queryable = primary) {
  const range = resolveRange({ from: q.from, to: q.to, group: 'month' });
  const db = await summarised(primary, reads);
  const grid = (await summaryCohorts(db, 'all', range)).get('all') ?? summaryCohortsEmpty(range);
  const groups = q.group_by === 'lever' ? await leverCohorts(db, range, range.from) : await summaryCohortSplit(db, q.group_by, range);
  return {
    from: range.from,
    to: range.to,
    by: q.by,
    formula: RETENTION_FORMULAS.cohorts,
    cohorts: grid.map(cohortOut),
    groups: groups.map((g) => ({ ...g, cohorts: g.cohorts.map(cohortOut) })),
  };
}

async function summaryCohortSplit(db: Queryable, by: RetentionSplit | undefined, range: { from: string; to: string }) {
  if (!by) return [];
  const keys = await splitKeys(db, by, range.from);
  const split = await summaryCohorts(db, by, range);
  return keys.map((g) => ({ ...g, cohorts: split.get(g.key) ?? summaryCohortsEmpty(range) }));
}

function cohortOut(c: CohortRow) {
  return {
    month: c.month,
    size: c.size,
    income: centsToKes(c.income_cents),
    cells: c.cells.map((cell) => ({ offset: cell.offset, month: cell.month, active: cell.active, share: cell.share, income: centsToKes(cell.income_cents) })),
  };
}

const percent = (r: number | null) => (r === null ? '' : (r * 100).toFixed(1));

type RetentionCsvRow = Awaited<ReturnType<typeof retentionReport>>['periods'][number] & { group: string };

export async function retentionCsv(db: Queryable, q: RetentionQuery, reads: Queryable = db): Promise<CsvTable<RetentionCsvRow>> {
  const report = await retentionReport(db, q, new Date(), reads);
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

export async function cohortsCsv(db: Queryable, q: CohortQuery, reads: Queryable = db): Promise<CsvTable<CohortCsvRow>> {
  const report = await cohortsReport(db, q, reads);
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
