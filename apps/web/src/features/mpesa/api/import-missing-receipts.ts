import { useMutation, useQueryClient } from '@tanstack/react-query';
import { importMissingReceipts } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/mpesa/statements/import-missing {statement_id}: stores the receipts Betdesk missed. */
export function useImportMissingReceipts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (statementId: number) => callEndpoint(importMissingReceipts, { body: { statement_id: statementId } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.reconciliation.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.mpesa.all }),
      ]),
  });
}
