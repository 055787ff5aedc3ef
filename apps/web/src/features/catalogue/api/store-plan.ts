import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PlanForm, storePlan as storePlanEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/catalogue/plans/store {id?, name, duration, price, active}. */
export const storePlanInputSchema = PlanForm;

export function storePlan(body: BodyOf<typeof storePlanEndpoint>) {
  return callEndpoint(storePlanEndpoint, { body });
}

export function useStorePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: storePlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.catalogue.all }),
  });
}
