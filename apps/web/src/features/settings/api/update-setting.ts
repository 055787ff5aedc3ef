import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SettingForm, updateSetting as updateSettingEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/settings/update {key, value}. */
export const updateSettingInputSchema = SettingForm;

export function updateSetting(body: BodyOf<typeof updateSettingEndpoint>) {
  return callEndpoint(updateSettingEndpoint, { body });
}

export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSetting,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.settings.all }),
  });
}
