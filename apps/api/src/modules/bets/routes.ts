import type { FastifyInstance } from 'fastify';
import { clientBets, closedBets, enterProfit, exportClientBets, exportClosedBets, exportOpenBets, openBet, openBets, searchClosedBets } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { pageOf } from '../../db/list.ts';
import { readDeps } from '../../http/reads.ts';
import { route } from '../../http/route.ts';
import { requireClient } from '../clients/service.ts';
import * as bets from './service.ts';

export function betRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, openBet, ({ actor, body, request }) => bets.openBet(deps, actor, body, request.id));
  route(app, enterProfit, ({ actor, body, request }) => bets.enterProfit(deps, actor, body, request.id));
  route(app, openBets, async ({ actor, query, request }) => bets.openBets(await readDeps(deps, request), actor, query));
  route(app, closedBets, async ({ actor, query, request }) => bets.closedBets(await readDeps(deps, request), actor, query));
  route(app, searchClosedBets, async ({ actor, query, request }) => bets.closedBets(await readDeps(deps, request), actor, query));
  csvRoute(app, exportOpenBets, async ({ actor, query }) => bets.betsCsv(deps, actor, { status: 'open', ...query }));
  csvRoute(app, exportClosedBets, async ({ actor, query }) => bets.betsCsv(deps, actor, { status: 'closed', ...query }));

  // A client's bets (their page): the client is looked up in the actor's scope first (404 otherwise).
  route(app, clientBets, async ({ actor, query }) => {
    const client = await requireClient(deps.db, actor, query.client_id);
    const { list, totalRecords } = await bets.betsOfClient(deps.db, client.id, pageOf(query), query.status);
    return { total_records: totalRecords, list, client };
  });
  csvRoute(app, exportClientBets, async ({ actor, query }) => {
    await requireClient(deps.db, actor, query.client_id);
    return bets.betsCsv(deps, actor, { clientId: query.client_id });
  });
}
