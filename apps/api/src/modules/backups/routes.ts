import { createReadStream, statSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  backupHealth,
  backupTexts,
  createBackup,
  createBackupDownloadLink,
  downloadBackup,
  downloadBackupByTicket,
  listBackups,
  refusalTexts,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { audit } from '../audit/service.ts';
import { issueDownloadTicket, readDownloadTicket } from './download-ticket.ts';
import { backupFilePath, health, listBackupFiles, runBackup } from './service.ts';

let running: Promise<unknown> | null = null;

/**
 * A backup is sent byte for byte as stored, with its length: it is already gzip-compressed (or
 * encrypted), and compressing it again on the wire would cost CPU for nothing and drop the size
 * the browser's download bar shows.
 */
const asStored = { compress: false } as const;

export function backupRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, listBackups, async () => ({
    backups: listBackupFiles(deps.config.backup.dir),
    health: await health(deps.db),
    schedule: `${deps.config.backup.cron} (${deps.config.backup.timezone})`,
    encrypted: Boolean(deps.config.backup.key),
  }));

  route(app, backupHealth, () => health(deps.db));

  route(app, createBackup, async ({ actor, request }) => {
    // One at a time per process: a second click while one runs is told so, not queued.
    if (running) throw new AppError(409, refusalTexts.backupRunning);
    const work = runBackup(deps.database, deps.config, 'manual', { userId: actor.userId });
    running = work;
    try {
      const made = await work;
      await audit(deps.db, 'backup.create', made.info.name, { actorUserId: actor.userId, requestId: request.id }, {
        after: { size_bytes: made.info.size_bytes, file_sha256: made.info.file_sha256, verified: made.info.verified },
      });
      return { message: backupTexts.made, backup: made.info };
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(500, `The backup failed: ${(error as Error).message}`);
    } finally {
      running = null;
    }
  });

  route(app, downloadBackup, async ({ query, reply }) => {
    const path = backupFilePath(deps.config.backup.dir, query.name);
    if (!path) throw notFound(backupTexts.notFound);
    return sendBackupFile(reply, path, query.name);
  }, asStored);

  route(app, createBackupDownloadLink, async ({ body, actor }) => {
    if (!backupFilePath(deps.config.backup.dir, body.name)) throw notFound(backupTexts.notFound);
    const { ticket, expiresAt } = issueDownloadTicket(deps.config.secretsKey, body.name, actor.userId);
    return { url: `${downloadBackupByTicket.path}?ticket=${encodeURIComponent(ticket)}`, expires_at: expiresAt.toISOString() };
  });

  route(app, downloadBackupByTicket, async ({ query, request, reply }) => {
    const granted = readDownloadTicket(deps.config.secretsKey, query.ticket);
    if (!granted) throw new AppError(403, backupTexts.linkExpired);
    const path = backupFilePath(deps.config.backup.dir, granted.name);
    if (!path) throw notFound(backupTexts.notFound);
    // A whole copy of the business's data left the server: the trail says who took which file.
    await audit(deps.db, 'backup.download', granted.name, { actorUserId: granted.userId, requestId: request.id });
    return sendBackupFile(reply, path, granted.name);
  }, asStored);
}

/** The file streamed from disk as an attachment under its own name (names are `betdesk-…`, plain ASCII). */
function sendBackupFile(reply: FastifyReply, path: string, name: string): FastifyReply {
  return reply
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('content-length', statSync(path).size)
    .header('cache-control', 'no-store')
    .send(createReadStream(path));
}
