import type { FastifyInstance } from 'fastify';
import { closedBets, enterProfit, exportClosedBets, exportOpenBets, openBet, openBets, searchClosedBets } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { route } from '../../http/route.ts';
import * as bets from './service.ts';

export function betRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, openBet, ({ actor, body, request }) => bets.openBet(deps, actor, body, request.id));
  route(app, enterProfit, ({ actor, body, request }) => bets.enterProfit(deps, actor, body, request.id));
  route(app, openBets, ({ actor, query }) => bets.openBets(deps, actor, query));
  route(app, closedBets, ({ actor, query }) => bets.closedBets(deps, actor, query));
  route(app, searchClosedBets, ({ actor, query }) => bets.closedBets(deps, actor, query));
  csvRoute(app, exportOpenBets, async ({ actor, query }) => bets.betsCsv(deps, actor, { status: 'open', ...query }));
  csvRoute(app, exportClosedBets, async ({ actor, query }) => bets.betsCsv(deps, actor, { status: 'closed', ...query }));
}
