import type { FastifyInstance } from 'fastify';
import {
  exportBonuses,
  exportPaidBonuses,
  exportUnpaidBonuses,
  listBonuses,
  paidBonuses,
  recordBonusPayment,
  searchBonuses,
  unpaidBonuses,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { route } from '../../http/route.ts';
import * as bonuses from './service.ts';

export function bonusRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, listBonuses, ({ actor, query }) => bonuses.bonusesPage(deps, actor, 'all', query));
  route(app, searchBonuses, ({ actor, query }) => bonuses.bonusesPage(deps, actor, 'all', query));
  route(app, paidBonuses, ({ actor, query }) => bonuses.bonusPaymentsPage(deps, actor, query));
  route(app, unpaidBonuses, ({ actor, query }) => bonuses.bonusesPage(deps, actor, 'unpaid', query));
  route(app, recordBonusPayment, ({ actor, body, request }) => bonuses.recordBonusPayment(deps, actor, body, request.id));
  csvRoute(app, exportBonuses, async ({ actor, query }) => bonuses.bonusesCsv(deps, actor, { which: 'all', ...query }));
  csvRoute(app, exportPaidBonuses, async ({ actor, query }) => bonuses.bonusPaymentsCsv(deps, actor, query));
  csvRoute(app, exportUnpaidBonuses, async ({ actor, query }) => bonuses.bonusesCsv(deps, actor, { which: 'unpaid', ...query }));
}
