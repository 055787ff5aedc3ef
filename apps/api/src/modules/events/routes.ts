import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { LIVE_READY_EVENT, liveEvents } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { requireAccess } from '../../http/guard.ts';
import { openEventBus, type EventBus } from './bus.ts';
import { visibleTo } from './service.ts';

/** Often enough that proxies keep the stream open; each beat also re-checks the session. */
const HEARTBEAT_MS = 25_000;

/**
 * GET /api/events: a server-sent event stream read with fetch and the Authorization header
 * (docs/decisions: "Live events"), so the session token never sits in a URL or a log. The stream ends when the
 * session does (logout, password change, expiry), checked at each heartbeat.
 */
export function eventRoutes(app: FastifyInstance, deps: AppDeps): void {
  let bus: Promise<EventBus> | null = null;
  const streams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
    if (bus) await (await bus).close();
  });

  app.route({
    method: 'GET',
    url: liveEvents.path,
    schema: { summary: liveEvents.summary, tags: [liveEvents.tag], security: [{ bearer: [] }], produces: ['text/event-stream'] },
    preValidation: requireAccess(liveEvents.access),
    handler: async (request, reply) => {
      bus ??= openEventBus(deps.database);
      const events = await bus;
      let viewer: Actor = request.actor!;
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      out.write(`retry: 3000\nevent: ${LIVE_READY_EVENT}\ndata: {}\n\n`);
      streams.add(out);
      const unsubscribe = events.subscribe((announcement) => {
        if (visibleTo(viewer, announcement)) {
          out.write(`event: ${announcement.event.type}\ndata: ${JSON.stringify(announcement.event)}\n\n`);
        }
      });
      const heartbeat = setInterval(() => {
        void request
          .actorNow()
          .then((still) => {
            if (!still) return out.end();
            viewer = still;
            out.write(': keep-alive\n\n');
          })
          .catch(() => out.end());
      }, HEARTBEAT_MS);
      const stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(out);
      };
      out.on('close', stop);
      request.raw.on('close', () => out.end());
    },
  });
}
