import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  cohortsReport,
  exportCohortsReport,
  exportIncomeBySourceReport,
  exportRecoveryReport,
  exportRetentionReport,
  exportIncomeReport,
  exportMoneyBridgeReport,
  moneyBridgeReport,
  exportSalesReport,
  exportStaffReport,
  exportSubscribersReport,
  incomeBySourceReport,
  incomeReport,
  recoveryReport,
  retentionReport,
  salesReport,
  staffReport,
  subscribersReport,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { readDeps } from '../../http/reads.ts';
import { route } from '../../http/route.ts';
import * as bridge from './bridge.ts';
import * as money from './money.ts';
import * as retention from './retention.ts';
import * as subscribers from './subscribers.ts';

/**
 * Every report reads where the request's read routing says (the replica, decision 073); the
 * retention summaries, written as they are read, are brought up to date on the primary.
 */
export function reportRoutes(app: FastifyInstance, deps: AppDeps): void {
  const reads = async (request: FastifyRequest) => (await readDeps(deps, request)).db;
  route(app, incomeReport, async ({ query, request }) => money.incomeReport(await reads(request), query));
  route(app, incomeBySourceReport, async ({ query, request }) => money.incomeBySourceReport(await reads(request), query));
  route(app, salesReport, async ({ query, request }) => money.salesReport(await reads(request), query));
  route(app, staffReport, async ({ query, request }) => money.staffReport(await reads(request), query));
  route(app, subscribersReport, async ({ query, request }) => subscribers.subscribersReport(await reads(request), query));
  route(app, retentionReport, async ({ query, request }) => retention.retentionReport(deps.db, query, new Date(), await reads(request)));
  route(app, cohortsReport, async ({ query, request }) => retention.cohortsReport(deps.db, query, await reads(request)));
  route(app, recoveryReport, async ({ query, request }) => retention.recoveryReport(deps.db, query, await reads(request)));
  csvRoute(app, exportRecoveryReport, async ({ query, request }) => retention.recoveryCsv(deps.db, query, await reads(request)));
  csvRoute(app, exportRetentionReport, async ({ query, request }) => retention.retentionCsv(deps.db, query, await reads(request)));
  csvRoute(app, exportCohortsReport, async ({ query, request }) => retention.cohortsCsv(deps.db, query, await reads(request)));
  csvRoute(app, exportIncomeReport, async ({ query, request }) => money.incomeCsv(await reads(request), query));
  csvRoute(app, exportIncomeBySourceReport, async ({ query, request }) => money.incomeBySourceCsv(await reads(request), query));
  csvRoute(app, exportSalesReport, async ({ query, request }) => money.salesCsv(await reads(request), query));
  csvRoute(app, exportStaffReport, async ({ query, request }) => money.staffCsv(await reads(request), query));
  csvRoute(app, exportSubscribersReport, async ({ query, request }) => subscribers.subscribersCsv(await reads(request), query));
  route(app, moneyBridgeReport, async ({ query, request }) => bridge.moneyBridge(await reads(request), query));
  csvRoute(app, exportMoneyBridgeReport, async ({ query, request }) => bridge.moneyBridgeCsv(await reads(request), query));
}
