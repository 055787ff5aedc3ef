import type { FastifyInstance } from 'fastify';
import { activeTipsSubscriptions, allTipsSubscriptions } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as tipsSubscriptions from './service.ts';

export function tipsSubscriptionsRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, allTipsSubscriptions, ({ query }) => tipsSubscriptions.allSubscriptionsPage(deps.db, query));
  route(app, activeTipsSubscriptions, ({ query }) => tipsSubscriptions.activeSubscriptionsPage(deps.db, query));
}
