import type { FastifyInstance } from 'fastify';
import {
  clientBonuses,
  clientPaidBonuses,
  exportBonuses,
  exportClientBonuses,
  exportClientPaidBonuses,
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
import { pageOf } from '../../db/list.ts';
import { route } from '../../http/route.ts';
import { requireClient } from '../clients/service.ts';
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

  // A client's bonuses and bonus payments (their page): the client is looked up in the actor's scope first (404 otherwise).
  route(app, clientBonuses, async ({ actor, query }) => {
    const client = await requireClient(deps.db, actor, query.client_id);
    const { list, totalRecords } = await bonuses.bonusesOfClient(deps.db, actor, client.id, pageOf(query));
    return { total_records: totalRecords, list, client };
  });
  route(app, clientPaidBonuses, async ({ actor, query }) => {
    const client = await requireClient(deps.db, actor, query.client_id);
    const { list, totalRecords } = await bonuses.bonusPaymentsOfClient(deps.db, actor, client.id, pageOf(query));
    return { total_records: totalRecords, list, client };
  });
  csvRoute(app, exportClientBonuses, async ({ actor, query }) => {
    await requireClient(deps.db, actor, query.client_id);
    return bonuses.bonusesCsv(deps, actor, { clientId: query.client_id });
  });
  csvRoute(app, exportClientPaidBonuses, async ({ actor, query }) => {
    await requireClient(deps.db, actor, query.client_id);
    return bonuses.bonusPaymentsCsv(deps, actor, { clientId: query.client_id });
  });
}
