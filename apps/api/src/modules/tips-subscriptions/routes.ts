import type { FastifyInstance } from 'fastify';
import { activeTipsSubscriptions, allTipsSubscriptions } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { withSubscriptionInvoices } from '../tax/service.ts';
import * as tipsSubscriptions from './service.ts';

export function tipsSubscriptionsRoutes(app: FastifyInstance, deps: AppDeps): void {
  // Each row carries its sale's tax invoice (one query for the page).
  const withInvoices = async <P extends { subscriptions: { id: number }[] }>(page: P) => ({
    ...page,
    subscriptions: await withSubscriptionInvoices(deps, page.subscriptions),
  });
  route(app, allTipsSubscriptions, async ({ query }) => withInvoices(await tipsSubscriptions.allSubscriptionsPage(deps.db, query)));
  route(app, activeTipsSubscriptions, async ({ query }) => withInvoices(await tipsSubscriptions.activeSubscriptionsPage(deps.db, query)));
}
