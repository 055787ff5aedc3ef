import type { FastifyInstance } from 'fastify';
import { awaitingResults, enterResults, exportTrackRecord, proposedResults, storeTicket, tickets, trackRecord } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { csvRoute } from '../../http/csv.ts';
import * as record from './service.ts';

export function tipsRecordRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, storeTicket, ({ actor, body, request }) => record.storeTicket(deps, actor, body, request.id));
  route(app, tickets, ({ query }) => record.listTickets(deps.db, query));
  route(app, awaitingResults, async () => ({ selections: await record.awaitingResults(deps.db) }));
  route(app, proposedResults, async () => ({ selections: await record.proposedResults(deps.db) }));
  route(app, enterResults, ({ actor, body, request }) => record.enterResults(deps.db, actor, body, request.id));
  route(app, trackRecord, ({ query }) => record.trackRecord(deps.db, query));
  csvRoute(app, exportTrackRecord, ({ query }) => record.trackRecordCsv(deps.db, query));
}
