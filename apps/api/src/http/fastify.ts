import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { PORTAL_COOKIE } from '@betdesk/contract';
import type { Config } from '../config.ts';

/**
 * A Fastify instance with the external plugins every route relies on (compression, security
 * headers, OpenAPI from the zod schemas, form bodies, cookies). No route is registered here.
 */
export async function createFastify(trustProxy: Config['trustProxy'], logger: FastifyBaseLogger | undefined): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    trustProxy:
      typeof trustProxy === 'number' ? ((hops: number) => (_address: string, hop: number) => hop < hops)(trustProxy) : trustProxy,
    return503OnClosing: true,
    // No plugin timer: on a busy machine a plugin may take longer than Fastify's 10 seconds to
    // load (the API docs' static files), and a slow start must be slow, never a server that dies
    // at boot. A start that truly hangs shows as a process that never answers /api/ready.
    pluginTimeout: 0,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // API answers hold tokens, passwords and money: no browser or proxy keeps them. An answer that
    // chose its own caching (the API docs' assets) keeps it; the SPA's files are not under /api.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  // JSON answers and CSV exports over 1 kB go out brotli/gzip-compressed (a 2,000-row page: 644 kB -> ~80 kB).
  // The event stream is hijacked and never passes through here; built assets are precompressed.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Betdesk API', version: '1.0.0', description: 'Generated from packages/contract.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          portalCookie: { type: 'apiKey', in: 'cookie', name: PORTAL_COOKIE },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(formbody); // Africa's Talking posts delivery reports form-encoded
  await app.register(cookie); // the subscriber portal's session; staff use a bearer token
  return app;
}
