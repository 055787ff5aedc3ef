import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { statusTexts } from '@betdesk/contract';

/**
 * Vite names every file under assets/ by a hash of its content, so a browser keeps it for a year;
 * anything else (index.html, favicon) is checked with the server on each load.
 */
export function staticCacheControl(path: string): string {
  return /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.\w+(\.(br|gz))?$/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * The built SPA (when `webRoot` is given) and the answers for what no route matched: 405 or 404
 * under /api, the SPA's index.html for any other GET (the SPA shows its own 404 page).
 * Registered last, after every route.
 */
export async function serveWebApp(app: FastifyInstance, webRoot: string | null): Promise<void> {
  if (webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset; a browser that accepts one gets it as is.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, path) => res.setHeader('cache-control', staticCacheControl(path)),
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith('/api/') || path === '/api') {
      const known = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].some(
        (method) => method !== request.method && app.hasRoute({ url: path, method: method as 'GET' }),
      );
      const status = known ? 405 : 404;
      return reply.status(status).send({
        message: statusTexts[status],
        info: statusTexts[status],
        request_id: request.id,
      });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.status(404).send({ message: statusTexts[404], info: statusTexts[404] });
    }
    if (!webRoot) {
      return reply.status(404).type('text/plain').send('The web app is not built: run `npm run build`.');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
