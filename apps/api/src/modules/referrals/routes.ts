/**
 * The agents' routes (decision 088): register, list, a month's commission statement; the agents'
 * report and its CSV (decision 094).
 * Lives in: apps/api/src/modules/referrals/routes.ts
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Id, agentList, agentReport, agentStatement, agentTexts, createAgent, exportAgentReport } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as referrals from './service.ts';

function agentId(request: FastifyRequest): number {
  const parsed = Id.safeParse((request.params as { id?: string }).id);
  if (!parsed.success) throw notFound(agentTexts.notFound);
  return parsed.data;
}

export function referralRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, agentList, ({ query }) => referrals.agentPage(deps.db, query));
  route(app, createAgent, ({ actor, body, request }) => referrals.createAgent(deps, actor, body, request.id));
  route(app, agentStatement, ({ query, request }) => referrals.agentStatement(deps, agentId(request), query.month));
  route(app, agentReport, ({ query }) => referrals.agentReport(deps.db, query));
  csvRoute(app, exportAgentReport, ({ query }) => referrals.agentReportCsv(deps.db, query));
}
