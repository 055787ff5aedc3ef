import {
  centsToKes,
  RECONCILIATION_MAX_DAYS,
  reconciliationTexts,
  type ReconciliationDay,
  type ReconciliationFigure,
  refusalTexts,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { CsvTable } from '../../http/csv.ts';
import { fieldError } from '../../http/errors.ts';
import { darajaFor } from '../../integrations/mpesa/daraja.ts';
import { getSetting } from '../settings/service.ts';
import { latestMoneyCheck, runMoneyCheck } from './money-check.ts';
import { lastPullRun, pullRunOf, runPull } from './pull.ts';
import * as q from './queries.ts';

export { importMissing, listStatements, showStatement, statementSummaryOf, uploadStatement } from './statements.ts';
export { latestMoneyCheck, runMoneyCheck } from './money-check.ts';
export { runPull } from './pull.ts';

const DAY_MS = 86_400_000;
const NAIROBI_OFFSET_MS = 3 * 3_600_000;

/** The start of a Nairobi day (YYYY-MM-DD) as an instant: midnight at UTC+3. */
function nairobiMidnight(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) - NAIROBI_OFFSET_MS);
}

function nairobiDay(at: Date): string {
  return new Date(at.getTime() + NAIROBI_OFFSET_MS).toISOString().slice(0, 10);
}

function checkedDay(field: string, day: string): Date {
  const start = nairobiMidnight(day);
  if (Number.isNaN(start.getTime()) || nairobiDay(start) !== day) throw fieldError(field, `${day} is not a date`);
  return start;
}


/**
 * The daily money check: per Nairobi day (the last 14 by default, at most 92), what came in and
 * what the latest statement covering the day says; the difference is statement minus received.
 */
export async function dailyReconciliation(deps: AppDeps, query: { from?: string | undefined; to?: string | undefined }) {
  const to = query.to ?? (query.from ? nairobiDay(new Date(Math.max(Date.now(), checkedDay('from', query.from).getTime()))) : nairobiDay(new Date()));
  const toStart = checkedDay('to', to);
  const from = query.from ?? nairobiDay(new Date(toStart.getTime() - 13 * DAY_MS + NAIROBI_OFFSET_MS));
  const fromStart = checkedDay('from', from);
  if (fromStart > toStart) throw fieldError('from', refusalTexts.dateFromAfterTo);
  if ((toStart.getTime() - fromStart.getTime()) / DAY_MS + 1 > RECONCILIATION_MAX_DAYS) {
    throw fieldError('to', reconciliationTexts.tooManyDays);
  }
  const found = await q.dailyFigures(deps.db, from, to, fromStart, new Date(toStart.getTime() + DAY_MS));
  const days: ReconciliationDay[] = found.map((d) => {
    const received = centsToKes(d.received);
    const onStatement = d.statement_id === null ? null : centsToKes(d.on_statement);
    return {
      day: d.day,
      received,
      received_count: Number(d.received_count ?? 0),
      claimed: centsToKes(d.claimed),
      unclaimed: centsToKes(d.unclaimed),
      refunded: centsToKes(d.refunded),
      rejected_count: Number(d.rejected_count ?? 0),
      statement_id: d.statement_id === null ? null : Number(d.statement_id),
      on_statement: onStatement,
      difference: d.statement_id === null ? null : centsToKes(Number(d.on_statement ?? 0) - Number(d.received ?? 0)),
    };
  });
  return { from, to, days };
}

/** KES with its cents written out, so the columns add up to the cent as read. */
const cents = (kes: number | null) => (kes === null ? null : kes.toFixed(2));

const dayColumns: CsvTable<ReconciliationDay>['columns'] = [
  { header: 'Day', value: (d) => d.day },
  { header: 'Received (KES)', value: (d) => cents(d.received) },
  { header: 'Payments', value: (d) => d.received_count },
  { header: 'Claimed (KES)', value: (d) => cents(d.claimed) },
  { header: 'Unclaimed (KES)', value: (d) => cents(d.unclaimed) },
  { header: 'Refunded (KES)', value: (d) => cents(d.refunded) },
  { header: 'Rejected', value: (d) => d.rejected_count },
  { header: 'On Statement (KES)', value: (d) => cents(d.on_statement) },
  { header: 'Difference (KES)', value: (d) => cents(d.difference) },
];

/** The screen's days as CSV (oldest first): the same figures, so the file balances as the screen does. */
export async function reconciliationCsv(deps: AppDeps, query: { from?: string | undefined; to?: string | undefined }): Promise<CsvTable<ReconciliationDay>> {
  const { days } = await dailyReconciliation(deps, query);
  return { filename: 'money-check', columns: dayColumns, rows: [days] };
}

export async function figureRows(deps: AppDeps, query: { day: string; figure: ReconciliationFigure; page: number; perPage: number }) {
  const start = checkedDay('day', query.day);
  const found = await q.rowsOfFigure(deps.db, { text: query.day, start, end: new Date(start.getTime() + DAY_MS) }, query.figure, query);
  return { rows: found.rows, total_records: found.total };
}

/** What the reconciliation screen and the dashboard's banner show. */
export async function reconciliationStatus(deps: AppDeps) {
  const last = await lastPullRun(deps);
  return {
    pull_configured: darajaFor(deps.config.mpesa, deps.config.webhookSecret) !== null,
    pull_interval_hours: Number(await getSetting(deps.db, 'mpesa_pull_interval_hours')),
    last_pull: last ? pullRunOf(last) : null,
    money_check: await latestMoneyCheck(deps.db),
  };
}

export async function pullNow(deps: AppDeps) {
  const run = await runPull(deps, { force: true });
  return { info: run ? reconciliationTexts.pullDone : reconciliationTexts.pullOff, run: run ? pullRunOf(run) : null };
}

export async function moneyCheckNow(deps: AppDeps) {
  return { info: reconciliationTexts.checkDone, money_check: await runMoneyCheck(deps.db) };
}
