import type { FastifyInstance } from 'fastify';
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
import { route } from '../../http/route.ts';
import * as bridge from './bridge.ts';
import * as money from './money.ts';
import * as retention from './retention.ts';
import * as subscribers from './subscribers.ts';

export function reportRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, incomeReport, ({ query }) => money.incomeReport(deps.db, query));
  route(app, incomeBySourceReport, ({ query }) => money.incomeBySourceReport(deps.db, query));
  route(app, salesReport, ({ query }) => money.salesReport(deps.db, query));
  route(app, staffReport, ({ query }) => money.staffReport(deps.db, query));
  route(app, subscribersReport, ({ query }) => subscribers.subscribersReport(deps.db, query));
  route(app, retentionReport, ({ query }) => retention.retentionReport(deps.db, query));
  route(app, cohortsReport, ({ query }) => retention.cohortsReport(deps.db, query));
  route(app, recoveryReport, ({ query }) => retention.recoveryReport(deps.db, query));
  csvRoute(app, exportRecoveryReport, ({ query }) => retention.recoveryCsv(deps.db, query));
  csvRoute(app, exportRetentionReport, ({ query }) => retention.retentionCsv(deps.db, query));
  csvRoute(app, exportCohortsReport, ({ query }) => retention.cohortsCsv(deps.db, query));
  csvRoute(app, exportIncomeReport, ({ query }) => money.incomeCsv(deps.db, query));
  csvRoute(app, exportIncomeBySourceReport, ({ query }) => money.incomeBySourceCsv(deps.db, query));
  csvRoute(app, exportSalesReport, ({ query }) => money.salesCsv(deps.db, query));
  csvRoute(app, exportStaffReport, ({ query }) => money.staffCsv(deps.db, query));
  route(app, moneyBridgeReport, ({ query }) => bridge.moneyBridge(deps.db, query));
  csvRoute(app, exportMoneyBridgeReport, ({ query }) => bridge.moneyBridgeCsv(deps.db, query));
  csvRoute(app, exportSubscribersReport, ({ query }) => subscribers.subscribersCsv(deps.db, query));
}
