import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * What a statement row is: money paid in (compared with Betdesk's payments by receipt), money paid
 * out or charged (summarised only), a reversal, a paid-in row a reversal on the same statement
 * undid, or anything else (a failed or pending row).
 */
export const STATEMENT_ROW_KINDS = ['paid_in', 'reversed', 'withdrawal', 'charge', 'reversal', 'other'] as const;
export type StatementRowKind = (typeof STATEMENT_ROW_KINDS)[number];

/**
 * A statement the M-Pesa organisation portal exported, uploaded by an admin. The file's SHA-256
 * makes a second upload of the same file the same statement. The period is its first and last
 * row's completion time.
 */
export const mpesaStatements = pgTable(
  'mpesa_statements',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    fileHash: text('file_hash').notNull().unique(),
    fileName: text('file_name'),
    periodFrom: timestamp('period_from', { withTimezone: true }).notNull(),
    periodTo: timestamp('period_to', { withTimezone: true }).notNull(),
    rowCount: integer('row_count').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mpesa_statements_period_idx').on(t.periodFrom, t.periodTo)],
);

/** One row of an uploaded statement, as the portal wrote it (amounts in cents). */
export const mpesaStatementRows = pgTable(
  'mpesa_statement_rows',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    statementId: bigint('statement_id', { mode: 'number' })
      .notNull()
      .references(() => mpesaStatements.id),
    /** The line of the file it came from. */
    line: integer('line').notNull(),
    receipt: text('receipt').notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull(),
    initiatedAt: timestamp('initiated_at', { withTimezone: true }),
    details: text('details'),
    transactionStatus: text('transaction_status'),
    kind: text('kind', { enum: STATEMENT_ROW_KINDS }).notNull(),
    paidInCents: bigint('paid_in_cents', { mode: 'number' }).notNull(),
    withdrawnCents: bigint('withdrawn_cents', { mode: 'number' }).notNull(),
    balanceCents: bigint('balance_cents', { mode: 'number' }),
    reasonType: text('reason_type'),
    otherPartyInfo: text('other_party_info'),
    linkedTransactionId: text('linked_transaction_id'),
    accountNo: text('account_no'),
  },
  (t) => [
    index('mpesa_statement_rows_kind_idx').on(t.statementId, t.kind, t.completedAt),
    index('mpesa_statement_rows_receipt_idx').on(t.statementId, t.receipt),
  ],
);

export const PULL_RUN_STATUSES = ['running', 'ok', 'failed'] as const;

/** One run of the Pull Transactions job: the window asked for and what it found. */
export const mpesaPullRuns = pgTable(
  'mpesa_pull_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    windowFrom: timestamp('window_from', { withTimezone: true }).notNull(),
    windowTo: timestamp('window_to', { withTimezone: true }).notNull(),
    status: text('status', { enum: PULL_RUN_STATUSES }).notNull().default('running'),
    pages: integer('pages').notNull().default(0),
    rowsSeen: integer('rows_seen').notNull().default(0),
    rowsRecovered: integer('rows_recovered').notNull().default(0),
    error: text('error'),
  },
  (t) => [index('mpesa_pull_runs_started_idx').on(t.startedAt)],
);

/** The nightly money check: whether every invariant held, and the failures when not. */
export const moneyChecks = pgTable(
  'money_checks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull().defaultNow(),
    ok: boolean('ok').notNull(),
    failures: jsonb('failures').notNull(),
    /** Refunds handed to M-Pesa whose end is not known yet: listed until they resolve. */
    unconfirmedRefunds: jsonb('unconfirmed_refunds').notNull().default([]),
  },
  (t) => [index('money_checks_ran_idx').on(t.ranAt)],
);
