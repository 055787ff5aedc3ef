import { useMutation, useQueryClient } from '@tanstack/react-query';
import { approveRefund, cancelRefund, resolveRefund, type ResolveRefundForm, type ResponseOf } from '@betdesk/contract';
import { request } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

const refundPath = (path: string, id: number) => path.replace(':id', String(id));

/**
 * POST /api/refunds/:id/approve {code}: a second admin's approval with a fresh code from their
 * authenticator. The form shows the refusals: 403 to the admin who asked, 422 under the code.
 */
export function approveRefundWithCode(id: number, code: string) {
  return request<ResponseOf<typeof approveRefund>>('POST', refundPath(approveRefund.path, id), { body: { code } });
}

/**
 * POST /api/refunds/:id/resolve {outcome, receipt, note}: an admin marks a refund held for review
 * or unknown past the limit done or failed, after the M-Pesa statement.
 */
export function resolveRefundAfterStatement(id: number, values: ResolveRefundForm) {
  return request<ResponseOf<typeof resolveRefund>>('POST', refundPath(resolveRefund.path, id), { body: values });
}

/** POST /api/refunds/:id/cancel: either admin, until it is approved. */
export function useCancelRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request<ResponseOf<typeof cancelRefund>>('POST', refundPath(cancelRefund.path, id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.refunds.all }),
  });
}
