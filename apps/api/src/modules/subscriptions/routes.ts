import type { FastifyInstance } from 'fastify';
import { allSubscriptions, exportAllSubscriptions, exportRecentSubscriptions, recentSubscriptions } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { route } from '../../http/route.ts';
import { withSubscriptionInvoices } from '../tax/service.ts';
import { subscriptionsCsv, subscriptionsPage } from './service.ts';

export function subscriptionRoutes(app: FastifyInstance, deps: AppDeps): void {
  // Each row carries its sale's tax invoice (one query for the page).
  const page = async (which: 'recent' | 'all', query: Parameters<typeof subscriptionsPage>[2]) => {
    const found = await subscriptionsPage(deps.db, which, query);
    return { ...found, subscriptions: await withSubscriptionInvoices(deps, found.subscriptions) };
  };
  route(app, recentSubscriptions, ({ query }) => page('recent', query));
  route(app, allSubscriptions, ({ query }) => page('all', query));
  csvRoute(app, exportRecentSubscriptions, async ({ query }) => subscriptionsCsv(deps, { which: 'recent', ...query }));
  csvRoute(app, exportAllSubscriptions, async ({ query }) => subscriptionsCsv(deps, { which: 'all', ...query }));
}
