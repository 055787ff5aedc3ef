import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { backupHealth, backupTexts, createBackup, downloadBackup, listBackups } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { audit } from '../audit/service.ts';
import { backupFilePath, health, listBackupFiles, runBackup } from './service.ts';

let running: Promise<unknown> | null = null;

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
    if (running) throw new AppError(409, 'A backup is already running');
    const work = runBackup(deps.database, deps.config, 'manual', { userId: actor.userId });
    running = work;
    try {
      const made = await work;
      await audit(deps.db, {
        actorUserId: actor.userId,
        action: 'backup.create',
        entity: 'backup',
        entityId: made.info.name,
        after: { size_bytes: made.info.size_bytes, file_sha256: made.info.file_sha256, verified: made.info.verified },
        requestId: request.id,
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
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${query.name}"`)
      .header('cache-control', 'no-store')
      .send(createReadStream(path));
  });
}
