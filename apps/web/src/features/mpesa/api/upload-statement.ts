import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadStatement as uploadEndpoint, type ResponseOf } from '@betdesk/contract';
import { request } from '@/lib/http.ts';
import { reconciliationKey } from './get-reconciliation.ts';

/** POST /api/mpesa/statements, multipart {file} (admins) -> the statement's comparison. */
export function uploadStatement(file: File) {
  return request<ResponseOf<typeof uploadEndpoint>>('POST', uploadEndpoint.path, { body: { file } }, { file: true });
}

export function useUploadStatement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadStatement,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reconciliationKey }),
  });
}
