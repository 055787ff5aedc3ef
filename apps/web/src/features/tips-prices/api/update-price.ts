import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PriceForm, updatePrice as updatePriceEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/prices/update {bet_category_price_id, name, price}. */
export const updatePriceInputSchema = PriceForm;

export function updatePrice(body: BodyOf<typeof updatePriceEndpoint>) {
  return callEndpoint(updatePriceEndpoint, { body });
}

export function useUpdatePrice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePrice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tips.prices }),
  });
}
