import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { health, PORTAL_COOKIE, statusTexts } from '@betdesk/contract';
import type { AppDeps } from '../deps.ts';
import { auditRoutes } from '../modules/audit/routes.ts';
import { backupRoutes } from '../modules/backups/routes.ts';
import { installMetrics } from '../modules/metrics/service.ts';
import { readinessRoutes } from '../modules/metrics/routes.ts';
import { authRoutes } from '../modules/auth/routes.ts';
import { eventRoutes } from '../modules/events/routes.ts';
import { betRoutes } from '../modules/bets/routes.ts';
import { bonusRoutes } from '../modules/bonuses/routes.ts';
import { clientRoutes } from '../modules/clients/routes.ts';
import { dashboardRoutes } from '../modules/dashboard/routes.ts';
import { messageRoutes } from '../modules/messages/routes.ts';
import { subscriptionRoutes } from '../modules/subscriptions/routes.ts';
import { userRoutes } from '../modules/users/routes.ts';
import { mpesaRoutes } from '../modules/mpesa/routes.ts';
import { reconciliationRoutes } from '../modules/reconciliation/routes.ts';
import { privacyRoutes } from '../modules/privacy/routes.ts';
import { reportRoutes } from '../modules/reports/routes.ts';
import { portalRoutes } from '../modules/portal/routes.ts';
import { settingsRoutes } from '../modules/settings/routes.ts';
import { catalogueRoutes } from '../modules/catalogue/routes.ts';
import { smsRoutes } from '../modules/sms/routes.ts';
import { selfServiceRoutes } from '../modules/self-service/routes.ts';
import { broadcastRoutes } from '../modules/broadcasts/routes.ts';
import { tipsPostsRoutes } from '../modules/tips-posts/routes.ts';
import { tipsPricesRoutes } from '../modules/tips-prices/routes.ts';
import { tipsSmsRoutes } from '../modules/tips-sms/routes.ts';
import { tipsSubscribersRoutes } from '../modules/tips-subscribers/routes.ts';
import { tipsSubscriptionsRoutes } from '../modules/tips-subscriptions/routes.ts';
import { tipsWinningsRoutes } from '../modules/tips-winnings/routes.ts';
import { ussdRoutes } from '../modules/ussd/routes.ts';
import { tipsRecordRoutes } from '../modules/tips-record/routes.ts';
import { installAuthHook } from './auth-hook.ts';
import { installErrorHandler } from './error-handler.ts';
import { route } from './route.ts';

const webDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** Hides the secret path segment of webhook URLs (`/api/hooks/.../<secret>`) from logs. */
export function redactUrl(url: string): string {
  return url.replace(/^(\/api\/hooks\/(?:[^/?]+\/)*?)[^/?]{16,}(?=$|\?)/, '$1[secret]');
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token', '*.apiKey'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}

/**
 * Vite names every file under assets/ by a hash of its content, so a browser keeps it for a year;
 * anything else (index.html, favicon) is checked with the server on each load.
 */
export function staticCacheControl(path: string): string {
  return /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.\w+(\.(br|gz))?$/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export interface BuildOptions {
  /** The process logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /** Serve the built SPA (off in API tests). */
  serveWeb?: boolean;
  /** Where the built SPA is (apps/web/dist; tests give a directory of their own). */
  webRoot?: string;
}

/**
 * The HTTP app: external plugins (security headers, OpenAPI), then the auth hook and error
 * mapping, then each domain's routes, then the SPA and the not-found/405 answers.
 */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    trustProxy:
      typeof deps.config.trustProxy === 'number'
        ? ((hops: number) => (_address: string, hop: number) => hop < hops)(deps.config.trustProxy)
        : deps.config.trustProxy,
    return503OnClosing: true,
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

  installAuthHook(app, deps);
  installErrorHandler(app);
  installMetrics(app, deps);
  readinessRoutes(app, deps);

  route(app, health, async () => {
    await deps.database.executeSql('select 1');
    return { status: 'ok' as const, database: deps.database.kind };
  });
  authRoutes(app, deps);
  dashboardRoutes(app, deps);
  userRoutes(app, deps);
  clientRoutes(app, deps);
  betRoutes(app, deps);
  bonusRoutes(app, deps);
  subscriptionRoutes(app, deps);
  messageRoutes(app, deps);
  tipsPostsRoutes(app, deps);
  tipsSmsRoutes(app, deps);
  tipsWinningsRoutes(app, deps);
  tipsRecordRoutes(app, deps);
  tipsSubscribersRoutes(app, deps);
  tipsSubscriptionsRoutes(app, deps);
  tipsPricesRoutes(app, deps);
  smsRoutes(app, deps);
  selfServiceRoutes(app, deps);
  ussdRoutes(app, deps);
  broadcastRoutes(app, deps);
  mpesaRoutes(app, deps);
  reconciliationRoutes(app, deps);
  settingsRoutes(app, deps);
  catalogueRoutes(app, deps);
  auditRoutes(app, deps);
  reportRoutes(app, deps);
  privacyRoutes(app, deps);
  eventRoutes(app, deps);
  portalRoutes(app, deps);
  backupRoutes(app, deps);

  const webRoot = options.webRoot ?? webDist;
  const serveWeb = options.serveWeb !== false && existsSync(webRoot);
  if (serveWeb) {
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
    if (!serveWeb) {
      return reply.status(404).type('text/plain').send('The web app is not built: run `npm run build`.');
    }
    // Every other path is a screen of the single-page app; it shows its own 404 page.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  return app;
}
