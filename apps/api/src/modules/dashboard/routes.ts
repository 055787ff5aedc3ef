import type { FastifyInstance } from 'fastify';
import { dashboard, dashboardAdminAlerts, dashboardIncome } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as service from './service.ts';

export function dashboardRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, dashboard, ({ actor }) => service.dashboard(deps, actor));
  route(app, dashboardIncome, () => service.incomeChart(deps));
  route(app, dashboardAdminAlerts, ({ request }) =>
    service.adminAlerts(deps, (part, err) => request.log.error({ err, part }, 'an admin alert could not be read')),
  );
}
