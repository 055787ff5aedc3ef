import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { cohortsReport, recoveryReport, retentionReport, type QueryOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export type RetentionFilter = QueryOf<typeof retentionReport>;
export type CohortFilter = QueryOf<typeof cohortsReport>;
export type RecoveryFilter = QueryOf<typeof recoveryReport>;

/** GET /api/reports/retention: renewal, churn, NRR, ARPU and LTV per period, optionally split (admin). */
export function useRetentionReport(filter: RetentionFilter) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reports.retention(filter),
      queryFn: () => callEndpoint(retentionReport, { query: filter }),
      placeholderData: keepPreviousData,
    }),
  );
}

/** GET /api/reports/cohorts: the monthly cohort grid (admin). */
export function useCohortsReport(filter: CohortFilter) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reports.cohorts(filter),
      queryFn: () => callEndpoint(cohortsReport, { query: filter }),
      placeholderData: keepPreviousData,
    }),
  );
}

/** GET /api/reports/recovery: failed payment requests by class, retries, reminders, amount recovered, optionally split (admin). */
export function useRecoveryReport(filter: RecoveryFilter) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reports.recovery(filter),
      queryFn: () => callEndpoint(recoveryReport, { query: filter }),
      placeholderData: keepPreviousData,
    }),
  );
}
