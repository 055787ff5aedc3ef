import { useMutation } from '@tanstack/react-query';
import { previewBroadcast, type BroadcastAudience } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** POST /api/broadcasts/preview -> recipients after opt-outs, parts, estimated cost, held until. */
export function usePreviewBroadcast() {
  return useMutation({ mutationFn: (audience: BroadcastAudience) => callEndpoint(previewBroadcast, { body: audience }) });
}
