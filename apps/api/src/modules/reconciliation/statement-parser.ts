import { CsvError, parse } from 'csv-parse/sync';
import type { StatementRowKind } from '../../db/schema/index.ts';
import { amountToCents } from '../mpesa/c2b-payload.ts';

/** A statement the parser refused: the line of the file and the column at fault. */
export class StatementFileError extends Error {
  constructor(
    readonly line: number,
    readonly column: string,
    readonly problem: string,
  ) {
    super(`Line ${line}, column "${column}": ${problem}`);
  }
}

export interface StatementLine {
  line: number;
  receipt: string;
  completedAt: Date;
  initiatedAt: Date | null;
  details: string;
  transactionStatus: string;
  kind: StatementRowKind;
  paidInCents: number;
  withdrawnCents: number;
  balanceCents: number | null;
  reasonType: string | null;
  otherPartyInfo: string | null;
  linkedTransactionId: string | null;
  accountNo: string | null;
}

/** The portal's columns, by their header text with case, spaces and punctuation ignored. */
const COLUMNS = {
  receipt: { header: 'Receipt No.', key: 'receiptno', required: true },
  completedAt: { header: 'Completion Time', key: 'completiontime', required: true },
  initiatedAt: { header: 'Initiation Time', key: 'initiationtime', required: false },
  details: { header: 'Details', key: 'details', required: true },
  transactionStatus: { header: 'Transaction Status', key: 'transactionstatus', required: true },
  paidIn: { header: 'Paid In', key: 'paidin', required: true },
  withdrawn: { header: 'Withdrawn', key: 'withdrawn', required: true },
  balance: { header: 'Balance', key: 'balance', required: false },
  reasonType: { header: 'Reason Type', key: 'reasontype', required: false },
  otherPartyInfo: { header: 'Other Party Info', key: 'otherpartyinfo', required: false },
  linkedTransactionId: { header: 'Linked Transaction ID', key: 'linkedtransactionid', required: false },
  accountNo: { header: 'A/C No.', key: 'acno', required: false },
} as const;
type Column = keyof typeof COLUMNS;

const headerKey = (cell: string) => cell.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The portal's times are Nairobi time (UTC+3 all year), written `2024-03-14 15:30:45`,
 * `14-03-2024 15:30:45` or `14/03/2024 15:30` depending on the export.
 */
export function statementTime(value: string): Date | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  const dmy = /^(\d{2})[-/](\d{2})[-/](\d{4}) (\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  const parts = iso
    ? [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6]]
    : dmy
      ? [dmy[3], dmy[2], dmy[1], dmy[4], dmy[5], dmy[6]]
      : null;
  if (!parts) return null;
  const [y, mo, d, h, mi, s] = parts.map((p) => Number(p ?? 0)) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return null;
  const at = new Date(Date.UTC(y, mo - 1, d, h - 3, mi, s));
  const local = new Date(at.getTime() + 3 * 3_600_000);
  return local.getUTCDate() === d && local.getUTCMonth() === mo - 1 ? at : null;
}

/** "1,500.00", "-500.00" (a withdrawal written negative) or blank (0) -> cents. */
function money(value: string): number | null {
  const plain = value.replace(/\s/g, '');
  if (plain === '') return 0;
  return amountToCents(plain.replace(/^-/, ''));
}

const REVERSAL = /reversal/i;
const CHARGE = /charge|fee|commission/i;

function kindOf(l: Omit<StatementLine, 'kind'>): StatementRowKind {
  if (!/^completed$/i.test(l.transactionStatus)) return 'other';
  const about = `${l.details} ${l.reasonType ?? ''}`;
  if (REVERSAL.test(about)) return 'reversal';
  if (l.paidInCents > 0) return 'paid_in';
  if (l.withdrawnCents > 0) return CHARGE.test(about) ? 'charge' : 'withdrawal';
  return 'other';
}

/**
 * Reads an M-Pesa organisation portal statement (CSV): the preamble above the header row is
 * skipped, blank lines are ignored, amounts may carry thousands separators. A paid-in row that a
 * reversal on the same statement names (Linked Transaction ID) is marked `reversed`. Throws
 * StatementFileError naming the line and column of the first problem.
 */
export function parseStatement(file: Buffer | string): StatementLine[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(file, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = Number((error as CsvError & { lines?: number }).lines ?? 1);
      throw new StatementFileError(line, 'any', `this is not a readable CSV line (${error.code})`);
    }
    throw error;
  }

  const headerAt = records.findIndex((r) => r.record.some((cell) => headerKey(cell) === COLUMNS.receipt.key));
  if (headerAt < 0) {
    throw new StatementFileError(1, COLUMNS.receipt.header, 'no header row naming "Receipt No." was found: is this an M-Pesa portal statement?');
  }
  const header = records[headerAt]!;
  const index = {} as Record<Column, number>;
  for (const [name, column] of Object.entries(COLUMNS) as [Column, (typeof COLUMNS)[Column]][]) {
    index[name] = header.record.findIndex((cell) => headerKey(cell) === column.key);
    if (index[name] < 0 && column.required) {
      throw new StatementFileError(header.info.lines, column.header, 'this column is missing from the header row');
    }
  }

  const lines: StatementLine[] = [];
  for (const { record, info } of records.slice(headerAt + 1)) {
    const cell = (name: Column) => (index[name] >= 0 ? (record[index[name]] ?? '').trim() : '');
    const optional = (name: Column) => cell(name) || null;
    const fail = (name: Column, problem: string) => new StatementFileError(info.lines, COLUMNS[name].header, problem);

    const receipt = cell('receipt');
    const paidInText = cell('paidIn');
    const withdrawnText = cell('withdrawn');
    // A closing line without a receipt or an amount (a total, a note) is not a transaction.
    if (!receipt && !paidInText && !withdrawnText) continue;
    if (!/^[A-Za-z0-9]{6,64}$/.test(receipt)) throw fail('receipt', `"${receipt.slice(0, 40)}" is not an M-Pesa receipt`);
    const completedAt = statementTime(cell('completedAt'));
    if (!completedAt) throw fail('completedAt', `"${cell('completedAt').slice(0, 40)}" is not a date and time`);
    const initiatedText = cell('initiatedAt');
    const initiatedAt = initiatedText ? statementTime(initiatedText) : null;
    if (initiatedText && !initiatedAt) throw fail('initiatedAt', `"${initiatedText.slice(0, 40)}" is not a date and time`);
    const paidInCents = money(paidInText);
    if (paidInCents === null) throw fail('paidIn', `"${paidInText.slice(0, 40)}" is not an amount`);
    const withdrawnCents = money(withdrawnText);
    if (withdrawnCents === null) throw fail('withdrawn', `"${withdrawnText.slice(0, 40)}" is not an amount`);
    const balanceText = cell('balance');
    const balanceCents = balanceText ? money(balanceText) : null;
    if (balanceText && balanceCents === null) throw fail('balance', `"${balanceText.slice(0, 40)}" is not an amount`);

    const read = {
      line: info.lines,
      receipt,
      completedAt,
      initiatedAt,
      details: cell('details'),
      transactionStatus: cell('transactionStatus'),
      paidInCents,
      withdrawnCents,
      balanceCents,
      reasonType: optional('reasonType'),
      otherPartyInfo: optional('otherPartyInfo'),
      linkedTransactionId: optional('linkedTransactionId'),
      accountNo: optional('accountNo'),
    };
    lines.push({ ...read, kind: kindOf(read) });
  }

  const reversedReceipts = new Set(lines.filter((l) => l.kind === 'reversal').map((l) => l.linkedTransactionId));
  for (const l of lines) {
    if (l.kind === 'paid_in' && reversedReceipts.has(l.receipt)) l.kind = 'reversed';
  }
  return lines;
}

/** "254712345678 - JOHN KAMAU", "2547****5678 - JANE" or a name alone -> who paid. */
export function otherParty(info: string | null): { msisdn: string | null; name: string | null } {
  if (!info) return { msisdn: null, name: null };
  const m = /^\s*([0-9*+][0-9* ]{5,19})\s*-\s*(.*)$/.exec(info);
  if (!m) return { msisdn: null, name: info.trim() || null };
  return { msisdn: m[1]!.replace(/\s/g, ''), name: m[2]!.trim() || null };
}
