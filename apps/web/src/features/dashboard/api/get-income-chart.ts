import { queryOptions, useQuery } from '@tanstack/react-query';
import { dashboardIncome } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/dashboard/income: M-Pesa income per day over the last 30 days (admin). */
export function getIncomeChart() {
  return callEndpoint(dashboardIncome);
}

export function useIncomeChart(enabled: boolean) {
  return useQuery(queryOptions({ queryKey: queryKeys.dashboard.income(), queryFn: getIncomeChart, enabled }));
}
