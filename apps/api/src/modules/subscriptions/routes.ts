import type { FastifyInstance } from 'fastify';
import { allSubscriptions, exportAllSubscriptions, exportRecentSubscriptions, recentSubscriptions } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { route } from '../../http/route.ts';
import { subscriptionsCsv, subscriptionsPage } from './service.ts';

export function subscriptionRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, recentSubscriptions, ({ query }) => subscriptionsPage(deps.db, 'recent', query));
  route(app, allSubscriptions, ({ query }) => subscriptionsPage(deps.db, 'all', query));
  csvRoute(app, exportRecentSubscriptions, async ({ query }) => subscriptionsCsv(deps, { which: 'recent', ...query }));
  csvRoute(app, exportAllSubscriptions, async ({ query }) => subscriptionsCsv(deps, { which: 'all', ...query }));
}
