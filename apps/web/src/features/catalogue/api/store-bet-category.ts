import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BetCategoryForm, storeBetCategory as storeBetCategoryEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/catalogue/bet-categories/store {id?, name, code}. */
export const storeBetCategoryInputSchema = BetCategoryForm;

export function storeBetCategory(body: BodyOf<typeof storeBetCategoryEndpoint>) {
  return callEndpoint(storeBetCategoryEndpoint, { body });
}

export function useStoreBetCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: storeBetCategory,
    // A category shows in every tips form and list, so those refetch too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.catalogue.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.tips.all }),
      ]),
  });
}
