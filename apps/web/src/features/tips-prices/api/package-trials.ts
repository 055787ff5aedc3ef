import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { packageTrials, saveTrial as saveTrialEndpoint, TrialForm, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/prices/trials -> every package's free trial (decision 089). */
export function getPackageTrials() {
  return callEndpoint(packageTrials);
}

export function packageTrialsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.tips.trials(), queryFn: getPackageTrials });
}

export function usePackageTrials() {
  return useQuery(packageTrialsQueryOptions());
}

/** POST /api/tips/prices/trial {bet_category_price_id, trial_days, trial_needs_auto_renew}. */
export const saveTrialInputSchema = TrialForm;

export function saveTrial(body: BodyOf<typeof saveTrialEndpoint>) {
  return callEndpoint(saveTrialEndpoint, { body });
}

export function useSaveTrial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTrial,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tips.prices }),
  });
}
