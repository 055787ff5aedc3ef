import type { FastifyInstance } from 'fastify';
import { ready } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { knownMigrations } from '../backups/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** SIGTERM's first step: /api/ready answers 503 from now on; requests are still served. */
    startDraining(): void;
  }
}

/**
 * GET /api/ready. Draining starts at SIGTERM (startDraining, then SHUTDOWN_DRAIN_SECONDS later
 * close()): from then on the answer is 503, so a proxy stops sending new work, while the requests
 * already in flight finish.
 */
export function readinessRoutes(app: FastifyInstance, deps: AppDeps): void {
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
  });
  app.addHook('preClose', async () => {
    draining = true;
  });
  const latest = knownMigrations().at(-1)?.when ?? 0;
  route(app, ready, async ({ reply }) => {
    if (draining) {
      reply.status(503);
      return { status: 'draining' as const };
    }
    try {
      const { rows } = await deps.database.executeSql('select max(created_at)::text as last from drizzle.__drizzle_migrations');
      if (Number(rows[0]?.last ?? 0) < latest) {
        reply.status(503);
        return { status: 'not_ready' as const, reason: 'migrations are not applied yet' };
      }
      return { status: 'ready' as const };
    } catch {
      reply.status(503);
      return { status: 'not_ready' as const, reason: 'the database does not answer' };
    }
  });
}
