import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ComplianceItemForm, updateComplianceItem, type ResponseOf } from '@betdesk/contract';
import { request } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';
import type { z } from 'zod';

/** The edit dialog's schema: the one the API checks, the item's own rules (dates it keeps) added there. */
export const complianceItemSchema = ComplianceItemForm;

/** PUT /api/compliance/items/:key (admins, audited). */
export function useUpdateComplianceItem(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.output<typeof ComplianceItemForm>) =>
      request<ResponseOf<typeof updateComplianceItem>>('PUT', updateComplianceItem.path.replace(':key', encodeURIComponent(key)), { body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.compliance.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard.adminAlerts() }),
      ]),
  });
}
