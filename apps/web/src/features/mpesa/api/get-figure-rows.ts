import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { reconciliationRows, type PageSize, type ReconciliationFigure } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/mpesa/reconciliation/rows?day&figure&page&perPage -> the rows behind one figure. */
export function useFigureRows(pick: { day: string; figure: ReconciliationFigure } | null, page: number, perPage: PageSize) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.reconciliation.figureRows(pick?.day, pick?.figure, page, perPage),
      queryFn: () => callEndpoint(reconciliationRows, { query: { day: pick!.day, figure: pick!.figure, page, perPage } }),
      enabled: pick !== null,
      placeholderData: keepPreviousData,
    }),
  );
}
