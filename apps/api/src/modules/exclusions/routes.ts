import type { FastifyInstance } from 'fastify';
import { exportSaferGamblingReport, markUnder18, portalExclusion, recordSelfExclusion, saferGamblingReport, selfExclusions } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { route } from '../../http/route.ts';
import * as exclusions from './service.ts';

export function exclusionRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, selfExclusions, ({ query }) => exclusions.register(deps.db, query));
  route(app, recordSelfExclusion, ({ actor, body, request }) => exclusions.recordByStaff(deps, actor, body, request.id));
  route(app, markUnder18, ({ actor, body, request }) => exclusions.markUnder18(deps, actor, body, request.id));
  route(app, portalExclusion, ({ body, request }) => exclusions.excludeFromPortal(deps, request.portal!, body.period, request.id));
  route(app, saferGamblingReport, ({ query }) => exclusions.saferGamblingReport(deps.db, query));
  csvRoute(app, exportSaferGamblingReport, ({ query }) => exclusions.saferGamblingCsv(deps.db, query));
}
