import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { providerBody } from './text.ts';
import { Id, Notice, PageQuery } from './common.ts';
import { BusinessDay } from './lists.ts';

/** Longest range the daily money check answers at once. */
export const RECONCILIATION_MAX_DAYS = 92;
/** Largest statement file accepted. */
export const STATEMENT_MAX_BYTES = 20 * 1024 * 1024;

const Day = BusinessDay;

/** A statement's kinds of compared rows (withdrawals and charges are only summarised). */
export const STATEMENT_KINDS = ['missing', 'mismatched', 'not_on_statement', 'matched'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

const MoneySum = z.object({ rows: z.number(), amount: z.number() });

/** What comparing an uploaded statement with Betdesk's payments found. Amounts in KES. */
export const StatementSummary = z.object({
  statement_id: z.number(),
  file_name: z.string().nullable(),
  uploaded_at: z.string(),
  period_from: z.string(),
  period_to: z.string(),
  rows: z.number(),
  paid_in_rows: z.number(),
  matched: z.number(),
  missing: z.number(),
  not_on_statement: z.number(),
  mismatched: z.number(),
  paid_in: MoneySum,
  withdrawals: MoneySum,
  charges: MoneySum,
  reversals: MoneySum,
  /** Paid-in rows a reversal on the statement undid: never imported. */
  reversed: MoneySum,
  /** Rows not completed (failed, cancelled ...). */
  other: MoneySum,
});
export type StatementSummary = z.infer<typeof StatementSummary>;

/**
 * One row behind a figure: a statement row, a Betdesk payment, or both (same receipt). Amounts
 * and times of each side; null where that side has none.
 */
export const ReconciliationRow = z.object({
  transaction_reference: z.string().nullable(),
  statement_amount: z.number().nullable(),
  statement_time: z.string().nullable(),
  statement_details: z.string().nullable(),
  other_party: z.string().nullable(),
  account_number: z.string().nullable(),
  payment_id: z.number().nullable(),
  payment_amount: z.number().nullable(),
  payment_time: z.string().nullable(),
  payment_status: z.enum(['claimed', 'unclaimed', 'rejected']).nullable(),
  payment_source: z.string().nullable(),
  sender_name: z.string().nullable(),
  paid_to: z.string().nullable(),
});
export type ReconciliationRow = z.infer<typeof ReconciliationRow>;

export const uploadStatement = endpoint({
  method: 'POST',
  path: '/api/mpesa/statements',
  tag: 'reconciliation',
  summary:
    'Upload the M-Pesa organisation portal statement (CSV in either header layout, or Excel .xlsx; multipart field `file`) and compare its paid-in rows with the payments by receipt. Totals lines below the table are skipped and listed in `skipped_lines`. The same file again changes nothing',
  access: 'reconcile:payments',
  response: Notice.extend(StatementSummary.shape).extend({
    duplicate: z.boolean(),
    /** Lines that are not transactions (a totals line below the table): left out, by line or row number. */
    skipped_lines: z.array(z.object({ line: z.number(), text: z.string() })),
  }),
});

export const showStatement = endpoint({
  method: 'GET',
  path: '/api/mpesa/statements/show',
  tag: 'reconciliation',
  summary:
    "A statement's comparison now, with a page of rows of each kind (or of `kind` only): missing, mismatched, not on statement, matched",
  access: 'reconcile:payments',
  query: PageQuery.extend({ statement_id: Id, kind: z.enum(STATEMENT_KINDS).optional() }),
  response: z.object({
    statement: StatementSummary,
    rows: z.object({
      missing: z.array(ReconciliationRow),
      mismatched: z.array(ReconciliationRow),
      not_on_statement: z.array(ReconciliationRow),
      matched: z.array(ReconciliationRow),
    }),
  }),
});

export const latestStatements = endpoint({
  method: 'GET',
  path: '/api/mpesa/statements',
  tag: 'reconciliation',
  summary: 'The statements uploaded, newest first',
  access: 'reconcile:payments',
  query: PageQuery,
  response: z.object({ statements: z.array(StatementSummary), total_records: z.number() }),
});

export const importMissingReceipts = endpoint({
  method: 'POST',
  path: '/api/mpesa/statements/import-missing',
  tag: 'reconciliation',
  summary:
    "Store the statement's missing receipts as payments (source statement; payer from Other Party Info and A/C No.), matched by the usual rules. Never twice",
  access: 'reconcile:payments',
  body: z.object({ statement_id: Id }),
  response: Notice.extend({ imported: z.number(), claimed: z.number(), unclaimed: z.number(), statement: StatementSummary }),
});

/**
 * One Africa/Nairobi day of the money check. KES; `on_statement` and `difference` null without a
 * statement. received = claimed + unclaimed + refunded to the cent: claimed and unclaimed are net
 * of what refunds returned of them, which is `refunded` (by the day the payment came in).
 */
export const ReconciliationDay = z.object({
  day: z.string(),
  received: z.number(),
  received_count: z.number(),
  claimed: z.number(),
  unclaimed: z.number(),
  refunded: z.number(),
  rejected_count: z.number(),
  statement_id: z.number().nullable(),
  on_statement: z.number().nullable(),
  difference: z.number().nullable(),
});
export type ReconciliationDay = z.infer<typeof ReconciliationDay>;

export const ReconciliationQuery = z
  .object({ from: Day.optional(), to: Day.optional() })
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: 'custom', path: ['from'], message: 'From must not be after To' });
  });

export const dailyReconciliation = endpoint({
  method: 'GET',
  path: '/api/mpesa/reconciliation',
  tag: 'reconciliation',
  summary: `Per Africa/Nairobi day (at most ${RECONCILIATION_MAX_DAYS}; the last 14 by default): received = claimed + unclaimed + refunded, rejected, on the latest statement covering the day, and the difference`,
  access: 'reconcile:payments',
  query: ReconciliationQuery,
  response: z.object({ from: z.string(), to: z.string(), days: z.array(ReconciliationDay) }),
});

export const exportReconciliation = csvExport({
  path: '/api/mpesa/reconciliation/export',
  tag: 'reconciliation',
  summary: 'The daily money check of the range (as the screen shows it), as CSV, oldest day first',
  access: 'reconcile:payments',
  query: ReconciliationQuery,
});

export const RECONCILIATION_FIGURES = ['received', 'claimed', 'unclaimed', 'refunded', 'rejected', 'on_statement', 'difference'] as const;
export type ReconciliationFigure = (typeof RECONCILIATION_FIGURES)[number];

export const reconciliationRows = endpoint({
  method: 'GET',
  path: '/api/mpesa/reconciliation/rows',
  tag: 'reconciliation',
  summary:
    "The rows behind one figure of one day: payments (received, claimed, unclaimed, refunded, rejected), the statement's paid-in rows, or the receipts that differ",
  access: 'reconcile:payments',
  query: PageQuery.extend({ day: Day, figure: z.enum(RECONCILIATION_FIGURES) }),
  response: z.object({ rows: z.array(ReconciliationRow), total_records: z.number() }),
});

export const PullRun = z.object({
  started_at: z.string(),
  finished_at: z.string().nullable(),
  window_from: z.string(),
  window_to: z.string(),
  status: z.enum(['running', 'ok', 'failed']),
  rows_seen: z.number(),
  rows_recovered: z.number(),
  error: z.string().nullable(),
});
export type PullRun = z.infer<typeof PullRun>;

export const MoneyCheck = z.object({
  ran_at: z.string(),
  ok: z.boolean(),
  failures: z.array(z.object({ check: z.string(), count: z.number(), examples: z.array(z.string()) })),
  /** Refunds sent to M-Pesa whose end is not known yet, listed until they resolve (decision 055). */
  unconfirmed_refunds: z.array(z.string()).default([]),
});
export type MoneyCheck = z.infer<typeof MoneyCheck>;

export const reconciliationStatus = endpoint({
  method: 'GET',
  path: '/api/mpesa/reconciliation/status',
  tag: 'reconciliation',
  summary: "Whether Pull Transactions is on, its last run, and the last nightly money check (the dashboard's banner)",
  access: 'reconcile:payments',
  response: z.object({
    pull_configured: z.boolean(),
    pull_interval_hours: z.number(),
    last_pull: PullRun.nullable(),
    money_check: MoneyCheck.nullable(),
  }),
});

export const runPullNow = endpoint({
  method: 'POST',
  path: '/api/mpesa/pull/run',
  tag: 'reconciliation',
  summary: 'Ask Daraja Pull Transactions now for the hours since the last run and store every receipt not seen',
  access: 'reconcile:payments',
  response: Notice.extend({ run: PullRun.nullable() }),
});

export const runMoneyCheckNow = endpoint({
  method: 'POST',
  path: '/api/mpesa/money-check/run',
  tag: 'reconciliation',
  summary: 'Run the money invariants now (they run nightly)',
  access: 'reconcile:payments',
  response: Notice.extend({ money_check: MoneyCheck }),
});

export const pullCallback = endpoint({
  method: 'POST',
  path: '/api/hooks/pull/:secret',
  tag: 'hooks',
  summary: "Daraja Pull Transactions notification: the pull job runs soon (what it says is read from Daraja's query)",
  access: 'public',
  body: providerBody(),
  response: z.object({ ResultCode: z.number(), ResultDesc: z.string() }),
});

export const reconciliationTexts = {
  statementUploaded: 'Statement compared',
  statementAgain: 'This statement was uploaded before: nothing changed',
  noFile: 'Choose the statement file (CSV or Excel .xlsx)',
  skippedLines: (lines: number[]) =>
    `${lines.length === 1 ? `Line ${lines[0]} is` : `Lines ${lines.join(', ')} are`} not a transaction (a totals line) and ${lines.length === 1 ? 'was' : 'were'} left out`,
  tooBig: `The file is larger than ${STATEMENT_MAX_BYTES / 1024 / 1024} MB`,
  imported: (n: number) => (n === 0 ? 'No missing receipts to import' : `${n} missing receipt${n === 1 ? '' : 's'} imported`),
  pullOff: 'M-Pesa is not configured: Pull Transactions is off',
  pullDone: 'Pull Transactions ran',
  checkDone: 'Money check ran',
  tooManyDays: `Choose at most ${RECONCILIATION_MAX_DAYS} days`,
} as const;
