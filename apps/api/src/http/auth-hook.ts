import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { actorForToken } from '../modules/auth/service.ts';

/** Resolves the bearer token once per request; the guard of each route decides what it allows. */
export function installAuthHook(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+([A-Za-z0-9_-]{20,200})$/);
    request.actor = match?.[1] ? await actorForToken(deps, match[1]) : null;
  });
}
