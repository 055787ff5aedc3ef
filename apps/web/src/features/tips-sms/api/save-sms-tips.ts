import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveSmsTips as saveEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/posts/update-sms-tips {posts}. */
export function saveSmsTips(body: BodyOf<typeof saveEndpoint>) {
  return callEndpoint(saveEndpoint, { body });
}

export function useSaveSmsTips() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSmsTips,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tips.smsTips }),
  });
}
