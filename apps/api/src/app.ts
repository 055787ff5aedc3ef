import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { health } from '@betdesk/contract';
import type { AppDeps } from './deps.ts';
import { installAuthHook } from './http/auth-hook.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { createFastify } from './http/fastify.ts';
import { route } from './http/route.ts';
import { serveWebApp } from './http/web.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { autoRenewRoutes } from './modules/auto-renew/routes.ts';
import { actorForToken, noteSessionWrite } from './modules/auth/service.ts';
import { installReadRouting } from './http/reads.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { backupRoutes } from './modules/backups/routes.ts';
import { refundRoutes } from './modules/refunds/routes.ts';
import { agentPayoutRoutes } from './modules/agent-payouts/routes.ts';
import { taxRoutes } from './modules/tax/routes.ts';
import { booksRoutes } from './modules/books/routes.ts';
import { betRoutes } from './modules/bets/routes.ts';
import { bonusRoutes } from './modules/bonuses/routes.ts';
import { advertRuleRoutes } from './modules/advert-rules/routes.ts';
import { promoCodeRoutes } from './modules/promo-codes/routes.ts';
import { referralRoutes } from './modules/referrals/routes.ts';
import { broadcastRoutes } from './modules/broadcasts/routes.ts';
import { catalogueRoutes } from './modules/catalogue/routes.ts';
import { clientRoutes } from './modules/clients/routes.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { eventRoutes } from './modules/events/routes.ts';
import { feedRoutes } from './modules/feed/routes.ts';
import { messageRoutes } from './modules/messages/routes.ts';
import { readinessRoutes } from './modules/metrics/routes.ts';
import { installMetrics } from './modules/metrics/service.ts';
import { mpesaRoutes } from './modules/mpesa/routes.ts';
import { portalRoutes, portalUnavailablePage } from './modules/portal/routes.ts';
import { privacyRoutes } from './modules/privacy/routes.ts';
import { complianceRoutes } from './modules/compliance/routes.ts';
import { exclusionRoutes } from './modules/exclusions/routes.ts';
import { searchRoutes } from './modules/search/routes.ts';
import { reconciliationRoutes } from './modules/reconciliation/routes.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { selfServiceRoutes } from './modules/self-service/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { smsRoutes } from './modules/sms/routes.ts';
import { subscriptionRoutes } from './modules/subscriptions/routes.ts';
import { tipsPostsRoutes } from './modules/tips-posts/routes.ts';
import { tipsPricesRoutes } from './modules/tips-prices/routes.ts';
import { tipsRecordRoutes } from './modules/tips-record/routes.ts';
import { tipsSmsRoutes } from './modules/tips-sms/routes.ts';
import { tipsSubscribersRoutes } from './modules/tips-subscribers/routes.ts';
import { tipsSubscriptionsRoutes } from './modules/tips-subscriptions/routes.ts';
import { tipsWinningsRoutes } from './modules/tips-winnings/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { ussdRoutes } from './modules/ussd/routes.ts';

const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

export interface BuildOptions {
  /** The process logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /** Serve the built SPA (off in API tests). */
  serveWeb?: boolean;
  /** Where the built SPA is (apps/web/dist; tests give a directory of their own). */
  webRoot?: string;
}

/**
 * The app, composed from the top (decision 028): the http/ toolkit's Fastify instance with its
 * external plugins, then the auth hook and error mapping, then each module's routes, then the SPA
 * and the not-found/405 answers. Only this file (and server.ts, which starts it) knows every module.
 */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = await createFastify(deps.config.trustProxy, options.logger);
  installAuthHook(app, (token) => actorForToken(deps, token));
  installReadRouting(app, deps.reads, (sessionId, lsn) => noteSessionWrite(deps, sessionId, lsn));
  installErrorHandler(app, { unavailablePage: portalUnavailablePage });
  installMetrics(app, deps);
  readinessRoutes(app, deps);

  route(app, health, async ({ request, reply }) => {
    try {
      await deps.database.executeSql('select 1');
      return { status: 'ok' as const, database: deps.database.kind };
    } catch (error) {
      // A monitor reads "unavailable" and why; a 500 said only that something broke.
      request.log.warn({ err: error }, 'health: the database does not answer');
      reply.status(503);
      return { status: 'unavailable' as const, database: deps.database.kind, reason: 'the database does not answer' };
    }
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
  autoRenewRoutes(app, deps);
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
  advertRuleRoutes(app, deps);
  promoCodeRoutes(app, deps);
  referralRoutes(app, deps);
  privacyRoutes(app, deps);
  complianceRoutes(app, deps);
  exclusionRoutes(app, deps);
  searchRoutes(app, deps);
  eventRoutes(app, deps);
  feedRoutes(app, deps);
  portalRoutes(app, deps);
  backupRoutes(app, deps);
  refundRoutes(app, deps);
  agentPayoutRoutes(app, deps);
  taxRoutes(app, deps);
  booksRoutes(app, deps);

  const webRoot = options.webRoot ?? webDist;
  await serveWebApp(app, options.serveWeb !== false && existsSync(webRoot) ? webRoot : null);
  return app;
}
