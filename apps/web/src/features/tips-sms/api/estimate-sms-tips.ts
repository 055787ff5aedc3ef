import { useMutation } from '@tanstack/react-query';
import { estimateSmsTips as estimateEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** POST /api/tips/posts/update-sms-tips/estimate {posts}: what saving would send (nothing is saved). */
export function estimateSmsTips(body: BodyOf<typeof estimateEndpoint>) {
  return callEndpoint(estimateEndpoint, { body });
}

export function useEstimateSmsTips() {
  return useMutation({ mutationFn: estimateSmsTips });
}
