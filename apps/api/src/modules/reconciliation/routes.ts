import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import {
  dailyReconciliation,
  exportReconciliation,
  importMissingReceipts,
  latestStatements,
  pullCallback,
  reconciliationRows,
  reconciliationStatus,
  reconciliationTexts,
  runMoneyCheckNow,
  runPullNow,
  showStatement,
  STATEMENT_MAX_BYTES,
  uploadStatement,
  refusalTexts,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { fieldError } from '../../http/errors.ts';
import { csvRoute } from '../../http/csv.ts';
import { route } from '../../http/route.ts';
import { requireWebhookSecret } from '../../http/webhook.ts';
import * as recon from './service.ts';
import type { StatementUpload } from './statements.ts';

/** Reads the upload form: one `file` part, bounded by the size limit. */
async function readStatementUpload(request: FastifyRequest): Promise<StatementUpload> {
  if (!request.isMultipart()) throw fieldError('file', refusalTexts.statementUploadForm);
  const upload: StatementUpload = { fileName: null, data: Buffer.alloc(0), truncated: false };
  for await (const part of request.parts()) {
    if (part.type === 'file' && part.fieldname === 'file') {
      upload.data = await part.toBuffer();
      upload.fileName = part.filename || null;
      upload.truncated = part.file.truncated;
    } else if (part.type === 'file') {
      part.file.resume();
    }
  }
  return upload;
}

export function reconciliationRoutes(app: FastifyInstance, deps: AppDeps): void {
  // Multipart is parsed only for the upload, inside its own plugin scope.
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: STATEMENT_MAX_BYTES, files: 1, fields: 2, parts: 3 },
      throwFileSizeLimit: false,
    });
    route(scope, uploadStatement, async ({ actor, request }) => {
      const result = await recon.uploadStatement(deps, actor, await readStatementUpload(request), request.id);
      const info = result.duplicate ? reconciliationTexts.statementAgain : reconciliationTexts.statementUploaded;
      const skipped = result.skipped_lines.map((l) => l.line);
      return { info: skipped.length ? `${info}. ${reconciliationTexts.skippedLines(skipped)}` : info, ...result };
    });
  });
  route(app, latestStatements, ({ query }) => recon.listStatements(deps, query));
  route(app, showStatement, ({ query }) => recon.showStatement(deps, query));
  route(app, importMissingReceipts, ({ actor, body, request }) => recon.importMissing(deps, actor, body.statement_id, request.id));
  route(app, dailyReconciliation, ({ query }) => recon.dailyReconciliation(deps, query));
  csvRoute(app, exportReconciliation, ({ query }) => recon.reconciliationCsv(deps, query));
  route(app, reconciliationRows, ({ query }) => recon.figureRows(deps, query));
  route(app, reconciliationStatus, () => recon.reconciliationStatus(deps));
  route(app, runPullNow, () => recon.pullNow(deps));
  route(app, runMoneyCheckNow, () => recon.moneyCheckNow(deps));

  // Daraja's Pull notification is acknowledged only: what it holds is read by the hourly job's query.
  void app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));
    route(hooks, pullCallback, async ({ request }) => {
      requireWebhookSecret(request, deps.config.webhookSecret);
      return { ResultCode: 0, ResultDesc: 'Success' };
    }, { callback: true });
  });
}
