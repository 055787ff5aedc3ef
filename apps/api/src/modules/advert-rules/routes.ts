import type { FastifyInstance } from 'fastify';
import { exportPromotionsBlockedReport, promotionsBlockedReport } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { route } from '../../http/route.ts';
import * as advertRules from './service.ts';

export function advertRuleRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, promotionsBlockedReport, ({ query }) => advertRules.promotionsBlockedReport(deps.db, query));
  csvRoute(app, exportPromotionsBlockedReport, ({ query }) => advertRules.promotionsBlockedCsv(deps.db, query));
}
