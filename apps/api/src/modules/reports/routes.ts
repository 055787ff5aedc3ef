import type { FastifyInstance } from 'fastify';
import { exportSubscribersReport, subscribersReport } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { route } from '../../http/route.ts';
import * as subscribers from './subscribers.ts';

export function reportRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, subscribersReport, ({ query }) => subscribers.subscribersReport(deps.db, query));
  csvRoute(app, exportSubscribersReport, ({ query }) => subscribers.subscribersCsv(deps.db, query));
}
