import { createHash } from 'node:crypto';
import { kesFixed, reconciliationTexts, type StatementKind, type StatementSummary, refusalTexts } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { fieldError, notFound } from '../../http/errors.ts';
import { darajaTimestamp } from '../../integrations/mpesa/daraja.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import { storeC2bConfirmation } from '../mpesa/service.ts';
import * as q from './queries.ts';
import { otherParty, readStatement, StatementFileError, type ParsedStatement, type SkippedLine } from './statement-parser.ts';

export interface StatementUpload {
  fileName: string | null;
  data: Buffer;
  truncated: boolean;
}

const INSERT_BATCH = 500;

async function headOrThrow(deps: AppDeps, statementId: number): Promise<q.StatementHead> {
  const head = await q.statementHead(deps.db, statementId);
  if (!head) throw notFound(refusalTexts.statementNotFound);
  return head;
}

export async function statementSummaryOf(deps: AppDeps, statementId: number): Promise<StatementSummary> {
  return q.statementSummary(deps.db, await headOrThrow(deps, statementId));
}

/**
 * Stores an uploaded portal statement and compares it. The file's SHA-256 identifies it: the same
 * file again answers the statement stored before and changes nothing.
 */
export async function uploadStatement(
  deps: AppDeps,
  actor: Actor,
  upload: StatementUpload,
  requestId: string,
): Promise<StatementSummary & { duplicate: boolean; skipped_lines: SkippedLine[] }> {
  if (upload.truncated) throw fieldError('file', reconciliationTexts.tooBig);
  if (upload.data.length === 0) throw fieldError('file', reconciliationTexts.noFile);
  let parsed: ParsedStatement;
  try {
    parsed = await readStatement(upload.data);
  } catch (error) {
    if (error instanceof StatementFileError) throw fieldError('file', error.message);
    throw error;
  }
  const { lines, skipped } = parsed;
  const fileHash = createHash('sha256').update(upload.data).digest('hex');
  const known = await q.statementOfFile(deps.db, fileHash);
  if (known !== null) return { ...(await statementSummaryOf(deps, known)), duplicate: true, skipped_lines: skipped };

  if (lines.length === 0) throw fieldError('file', refusalTexts.statementEmpty);
  const times = lines.map((l) => l.completedAt.getTime());

  const statementId = await deps.db.transaction(async (tx) => {
    const created = await q.insertStatement(tx, {
      fileHash,
      fileName: upload.fileName?.slice(0, 200) ?? null,
      periodFrom: new Date(Math.min(...times)),
      periodTo: new Date(Math.max(...times)),
      rowCount: lines.length,
      uploadedBy: actor.userId,
    });
    if (created === null) return null;
    for (let at = 0; at < lines.length; at += INSERT_BATCH) {
      await q.insertStatementRows(tx, created, lines.slice(at, at + INSERT_BATCH));
    }
    await audit(tx, 'statement.upload', created, byStaff(actor, requestId), {
      after: { file_name: upload.fileName, file_hash: fileHash, rows: lines.length, skipped_lines: skipped.length },
    });
    return created;
  });
  if (statementId === null) {
    // The same file was uploaded at the same moment by someone else.
    const other = await q.statementOfFile(deps.db, fileHash);
    return { ...(await statementSummaryOf(deps, other!)), duplicate: true, skipped_lines: skipped };
  }
  return { ...(await statementSummaryOf(deps, statementId)), duplicate: false, skipped_lines: skipped };
}

export async function showStatement(deps: AppDeps, query: { statement_id: number; kind?: StatementKind | undefined; page: number; perPage: number }) {
  const head = await headOrThrow(deps, query.statement_id);
  const kinds = ['missing', 'mismatched', 'not_on_statement', 'matched'] as const;
  const lists = await Promise.all(
    kinds.map(async (kind) =>
      query.kind && query.kind !== kind ? [] : (await q.statementRowsOfKind(deps.db, head, kind, { page: query.kind ? query.page : 1, perPage: query.perPage })).rows,
    ),
  );
  return {
    statement: await q.statementSummary(deps.db, head),
    rows: { missing: lists[0]!, mismatched: lists[1]!, not_on_statement: lists[2]!, matched: lists[3]! },
  };
}

export async function listStatements(deps: AppDeps, page: { page: number; perPage: number }) {
  const found = await q.statementIdsPage(deps.db, { perPage: page.perPage, offset: (page.page - 1) * page.perPage });
  const statements = await Promise.all(found.map((s) => statementSummaryOf(deps, s.id)));
  return { statements, total_records: await q.statementCount(deps.db) };
}

/** A statement row as the C2B confirmation Daraja would have sent for it. */
function confirmationOf(shortCode: string | undefined, statementId: number, l: Awaited<ReturnType<typeof q.missingLines>>[number]) {
  const payer = otherParty(l.other_party_info);
  return {
    TransactionType: 'Pay Bill',
    TransID: l.receipt,
    TransTime: darajaTimestamp(new Date(l.completed_at)),
    TransAmount: kesFixed(l.paid_in_cents),
    BusinessShortCode: shortCode ?? '',
    BillRefNumber: l.account_no ?? '',
    MSISDN: payer.msisdn ?? '',
    FirstName: payer.name ?? '',
    MiddleName: '',
    LastName: '',
    statement: { statement_id: statementId, line: l.line, details: l.details, other_party_info: l.other_party_info },
  };
}

const IMPORT_LIMIT = 5000;

/**
 * Stores the statement's missing receipts through the confirmation path (source `statement`), so
 * they are matched by the same rules and a callback arriving later is the same receipt, ignored.
 */
export async function importMissing(deps: AppDeps, actor: Actor, statementId: number, requestId: string) {
  await headOrThrow(deps, statementId);
  const shortCode = deps.config.mpesa.shortcode;
  const result = await deps.db.transaction(async (tx) => {
    const missing = await q.missingLines(tx, statementId, IMPORT_LIMIT);
    let imported = 0;
    let claimed = 0;
    let smsQueued = false;
    for (const line of missing) {
      const receipt = await storeC2bConfirmation(tx, shortCode, confirmationOf(shortCode, statementId, line), requestId, 'statement');
      if (!receipt.stored) continue;
      imported += 1;
      if (receipt.status === 'claimed') claimed += 1;
      if (receipt.outcome?.activatedSms) smsQueued = true;
    }
    await audit(tx, 'statement.import_missing', statementId, byStaff(actor, requestId), {
      after: { imported, claimed, receipts: missing.slice(0, 100).map((m) => m.receipt) },
    });
    return { imported, claimed, smsQueued };
  });
  if (result.smsQueued) await deps.jobs.nudge(QUEUES.smsDispatch);
  return {
    info: reconciliationTexts.imported(result.imported),
    imported: result.imported,
    claimed: result.claimed,
    unclaimed: result.imported - result.claimed,
    statement: await statementSummaryOf(deps, statementId),
  };
}
