import { CsvError, parse } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import type { StatementRowKind } from '../../db/schema/index.ts';
import { amountToCents } from '../mpesa/service.ts';

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

/**
 * The portal's columns, by their header text with case, spaces and punctuation ignored. `keys` holds
 * each layout's spelling: "Receipt No." and the upper-case export's RECEIPT_NUMBER.
 */
const COLUMNS = {
  receipt: { header: 'Receipt No.', keys: ['receiptno', 'receiptnumber'], required: true },
  completedAt: { header: 'Completion Time', keys: ['completiontime'], required: true },
  initiatedAt: { header: 'Initiation Time', keys: ['initiationtime'], required: false },
  details: { header: 'Details', keys: ['details'], required: true },
  transactionStatus: { header: 'Transaction Status', keys: ['transactionstatus'], required: true },
  paidIn: { header: 'Paid In', keys: ['paidin'], required: true },
  withdrawn: { header: 'Withdrawn', keys: ['withdrawn'], required: true },
  balance: { header: 'Balance', keys: ['balance'], required: false },
  reasonType: { header: 'Reason Type', keys: ['reasontype'], required: false },
  otherPartyInfo: { header: 'Other Party Info', keys: ['otherpartyinfo'], required: false },
  linkedTransactionId: { header: 'Linked Transaction ID', keys: ['linkedtransactionid'], required: false },
  accountNo: { header: 'A/C No.', keys: ['acno', 'accountno', 'accountnumber'], required: false },
} as const;
type Column = keyof typeof COLUMNS;

const headerKey = (cell: string) => cell.toLowerCase().replace(/[^a-z0-9]/g, '');
const isHeaderOf = (column: Column) => (cell: string) => (COLUMNS[column].keys as readonly string[]).includes(headerKey(cell));

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

/** One row of the file as text cells, with its line (CSV) or row number (Excel) for messages. */
export interface StatementRecord {
  line: number;
  cells: string[];
}

/** A line below the table that is not a transaction (a totals line): left out, and said so. */
export interface SkippedLine {
  line: number;
  text: string;
}

export interface ParsedStatement {
  lines: StatementLine[];
  skipped: SkippedLine[];
}

/** The CSV's records: blank lines dropped, cells trimmed, a byte-order mark ignored. */
export function csvRecords(file: Buffer | string): StatementRecord[] {
  try {
    const records = parse(file, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return records.map((r) => ({ line: r.info.lines, cells: r.record }));
  } catch (error) {
    if (error instanceof CsvError) {
      const line = Number((error as CsvError & { lines?: number }).lines ?? 1);
      throw new StatementFileError(line, 'any', `this is not a readable CSV line (${error.code})`);
    }
    throw error;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An Excel cell as the CSV export writes it. Excel keeps a time without a zone: exceljs hands it
 * over as that wall-clock time in UTC, which is the portal's Nairobi time. Amounts keep 2 decimals.
 */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const d = value;
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  }
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('').trim();
    if ('result' in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
    if ('text' in value) return String(value.text).trim();
    return '';
  }
  return String(value).trim();
}

/** The first worksheet of an .xlsx statement, row by row (empty rows dropped). */
export async function xlsxRecords(file: Buffer): Promise<StatementRecord[]> {
  // Loaded on the first Excel statement, not at every process's boot (with its zip libraries, about a second of CPU).
  const { default: excel } = await import('exceljs');
  const workbook = new excel.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ExcelJS.Buffer);
  } catch {
    throw new StatementFileError(1, 'any', 'this is not a readable Excel (.xlsx) file');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new StatementFileError(1, 'any', 'the Excel file has no worksheet');
  const records: StatementRecord[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const values = row.values as ExcelJS.CellValue[];
    const cells = values.slice(1).map((v) => cellText(v));
    if (cells.some((c) => c !== '')) records.push({ line: rowNumber, cells });
  });
  return records;
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

/** Reads a statement file: Excel (.xlsx, told by its content, not its name) or CSV. */
export async function readStatement(file: Buffer): Promise<ParsedStatement> {
  if (file.subarray(0, 4).equals(OLE)) {
    throw new StatementFileError(1, 'any', 'this is an old Excel (.xls) file: save it as .xlsx or CSV and upload that');
  }
  const records = file.subarray(0, 4).equals(ZIP) ? await xlsxRecords(file) : csvRecords(file);
  return parseStatementRecords(records);
}

/** A CSV statement's transactions (the tests' and the CSV path's shortcut). */
export function parseStatement(file: Buffer | string): StatementLine[] {
  return parseStatementRecords(csvRecords(file)).lines;
}

/** A line of the table's end that sums it up rather than being a transaction. */
const TOTALS = /^(grand\s+)?totals?\b|^sub-?totals?\b|^closing balance\b/i;

/**
 * Reads an M-Pesa organisation portal statement's rows: the preamble above the header row is
 * skipped, amounts may carry thousands separators. A line without a receipt that sums the table up
 * (its receipt cell or another cell starts with "Total") is skipped and listed in `skipped`. A
 * paid-in row that a reversal on the same statement names (Linked Transaction ID) is marked
 * `reversed`. Throws StatementFileError naming the line and column of the first problem.
 */
export function parseStatementRecords(records: StatementRecord[]): ParsedStatement {
  const headerAt = records.findIndex((r) => r.cells.some(isHeaderOf('receipt')));
  if (headerAt < 0) {
    throw new StatementFileError(1, COLUMNS.receipt.header, 'no header row naming "Receipt No." was found: is this an M-Pesa portal statement?');
  }
  const header = records[headerAt]!;
  const index = {} as Record<Column, number>;
  for (const [name, column] of Object.entries(COLUMNS) as [Column, (typeof COLUMNS)[Column]][]) {
    index[name] = header.cells.findIndex(isHeaderOf(name));
    if (index[name] < 0 && column.required) {
      throw new StatementFileError(header.line, column.header, 'this column is missing from the header row');
    }
  }

  const lines: StatementLine[] = [];
  const skipped: SkippedLine[] = [];
  for (const { cells, line } of records.slice(headerAt + 1)) {
    const cell = (name: Column) => (index[name] >= 0 ? (cells[index[name]] ?? '').trim() : '');
    const optional = (name: Column) => cell(name) || null;
    const fail = (name: Column, problem: string) => new StatementFileError(line, COLUMNS[name].header, problem);

    const receipt = cell('receipt');
    const paidInText = cell('paidIn');
    const withdrawnText = cell('withdrawn');
    // A closing line without a receipt or an amount (a note) is not a transaction.
    if (!receipt && !paidInText && !withdrawnText) continue;
    if (!/^[A-Za-z0-9]{6,64}$/.test(receipt) || TOTALS.test(receipt)) {
      if ((!receipt || TOTALS.test(receipt)) && cells.some((c) => TOTALS.test(c.trim()))) {
        skipped.push({ line, text: cells.map((c) => c.trim()).filter(Boolean).join(', ').slice(0, 120) });
        continue;
      }
      throw fail('receipt', `"${receipt.slice(0, 40)}" is not an M-Pesa receipt`);
    }
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
      line,
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
  return { lines, skipped };
}

/** "254712345678 - JOHN KAMAU", "2547****5678 - JANE" or a name alone -> who paid. */
export function otherParty(info: string | null): { msisdn: string | null; name: string | null } {
  if (!info) return { msisdn: null, name: null };
  const m = /^\s*([0-9*+][0-9* ]{5,19})\s*-\s*(.*)$/.exec(info);
  if (!m) return { msisdn: null, name: info.trim() || null };
  return { msisdn: m[1]!.replace(/\s/g, ''), name: m[2]!.trim() || null };
}
