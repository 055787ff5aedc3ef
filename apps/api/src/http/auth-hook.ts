import type { FastifyInstance } from 'fastify';
import type { Actor } from './actor.ts';

/**
 * Resolves the bearer token once per request; the guard of each route decides what it allows.
 * Who a token belongs to is the auth module's answer, passed in by the app (http/ imports no module).
 */
export function installAuthHook(app: FastifyInstance, actorForToken: (token: string) => Promise<Actor | null>): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('actorNow', null as unknown as () => Promise<Actor | null>);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const header = request.headers.authorization;
    const token = header?.match(/^Bearer\s+([A-Za-z0-9_-]{20,200})$/)?.[1];
    request.actorNow = token ? () => actorForToken(token) : async () => null;
    request.actor = await request.actorNow();
  });
}
