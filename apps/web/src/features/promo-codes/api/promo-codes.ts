import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createPromoCode, promoCodeList, smsTipsPrices, updatePromoCode, webTipsPrices, type PromoCodeBody, type ResponseOf } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { callEndpoint, request } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/promotions/codes?page&perPage -> codes (newest first), total_records. */
export function usePromoCodes(query: ListQueryParams) {
  const { page, perPage } = query;
  return useQuery(
    queryOptions({
      queryKey: queryKeys.promoCodes.list({ page, perPage }),
      queryFn: () => getList(promoCodeList, { page, perPage }),
      placeholderData: keepPreviousData,
    }),
  );
}

/** POST /api/promotions/codes (no id) or PUT /api/promotions/codes/:id; the list and the promotion report refresh. */
export function useSavePromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: PromoCodeBody }) =>
      id === null ? callEndpoint(createPromoCode, { body }) : request<ResponseOf<typeof updatePromoCode>>('PUT', updatePromoCode.path.replace(':id', String(id)), { body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.promoCodes.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.reports.all }),
      ]),
  });
}

/** The packages a code may be for: GET /api/tips/prices/web-tips and /sms-tips, as choices. */
export function usePackageChoices(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.tips.packages('promo-choices'),
      queryFn: async () => {
        const [web, sms] = await Promise.all([callEndpoint(webTipsPrices), callEndpoint(smsTipsPrices)]);
        return [
          ...web.packages.map((p) => ({ value: String(p.id), label: `${p.name} (web)` })),
          ...sms.packages.map((p) => ({ value: String(p.id), label: `${p.name} (SMS)` })),
        ];
      },
      enabled,
    }),
  );
}
