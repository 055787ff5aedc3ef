import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  exportIncomeBySourceReport,
  exportIncomeReport,
  exportPromotionsBlockedReport,
  agentReport,
  exportPromotionReport,
  promotionReport,
  exportRetentionReport,
  exportSalesReport,
  exportSaferGamblingReport,
  exportMoneyBridgeReport,
  exportStaffReport,
  saferGamblingReport,
  exportSubscribersReport,
  incomeBySourceReport,
  incomeReport,
  promotionsBlockedReport,
  salesReport,
  staffReport,
  subscribersReport,
  type QueryOf,
  type ReportName,
} from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export type ReportFilter = QueryOf<typeof incomeReport>;

/** Every report's data lives under this key, so live updates and a refresh reach them all. */

const endpoints = {
  income: incomeReport,
  sources: incomeBySourceReport,
  sales: salesReport,
  subscribers: subscribersReport,
} as const;

/** GET /api/reports/<name>: one report over the filter's range and grouping (admin). */
export function useReport<N extends keyof typeof endpoints>(name: N, filter: ReportFilter, enabled = true) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reports.report(name, filter),
      queryFn: () => callEndpoint(endpoints[name] as (typeof endpoints)[N], { query: filter } as never),
      placeholderData: keepPreviousData,
      enabled,
    }),
  );
}

/** GET /api/reports/staff: Bet4Me per staff member over the range (no grouping). */
export function useStaffReport(filter: ReportFilter, enabled = true) {
  const query = { from: filter.from, to: filter.to };
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reports.staff(query),
      queryFn: () => callEndpoint(staffReport, { query }),
      placeholderData: keepPreviousData,
      enabled,
    }),
  );
}

/** GET /api/reports/promotions-blocked: promotional texts refused for a banned claim over the range (decision 061). */
export function usePromotionsBlockedReport(filter: ReportFilter, enabled = true) {
  const query = { from: filter.from, to: filter.to };
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reports.promotions(query),
      queryFn: () => callEndpoint(promotionsBlockedReport, { query }),
      placeholderData: keepPreviousData,
      enabled,
    }),
  );
}

/** GET /api/reports/promotions: per promo code over the range, uses, income, discount and buyers who bought again (decision 077). */
export function usePromoCodesReport(filter: ReportFilter, enabled = true) {
  const query = { from: filter.from, to: filter.to };
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reports.report('promo-codes', query),
      queryFn: () => callEndpoint(promotionReport, { query }),
      placeholderData: keepPreviousData,
      enabled,
    }),
  );
}

/** GET /api/reports/promotions/agents: per agent over the range, new referees, their payments, commission, clawback and net (decision 094). */
export function useAgentsReport(filter: ReportFilter, enabled = true) {
  const query = { from: filter.from, to: filter.to };
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reports.report('agents', query),
      queryFn: () => callEndpoint(agentReport, { query }),
      placeholderData: keepPreviousData,
      enabled,
    }),
  );
}

/** GET /api/reports/safer-gambling: per month, exclusions started and ended and sales refused (decision 059). */
export function useSaferGamblingReport(filter: ReportFilter, enabled = true) {
  const query = { from: filter.from, to: filter.to };
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reports.report('safer-gambling', query),
      queryFn: () => callEndpoint(saferGamblingReport, { query }),
      placeholderData: keepPreviousData,
      enabled,
    }),
  );
}

/** Where each report's CSV is streamed from (the same filter). */
export const exportPaths: Record<ReportName, string> = {
  income: exportIncomeReport.path,
  sources: exportIncomeBySourceReport.path,
  sales: exportSalesReport.path,
  subscribers: exportSubscribersReport.path,
  retention: exportRetentionReport.path,
  staff: exportStaffReport.path,
  promotions: exportPromotionsBlockedReport.path,
  'promo-codes': exportPromotionReport.path,
  'safer-gambling': exportSaferGamblingReport.path,
  'money-bridge': exportMoneyBridgeReport.path,
};
