import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { moneyBridgeReport } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/reports/money-bridge?month=YYYY-MM: the month's M-Pesa received split by what it became (decision 068). */
export function useMoneyBridge(month: string) {
  const query = { month };
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reports.report('money-bridge', query),
      queryFn: () => callEndpoint(moneyBridgeReport, { query }),
      placeholderData: keepPreviousData,
    }),
  );
}
