import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadStatement as uploadEndpoint, type ResponseOf } from '@betdesk/contract';
import { request } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/mpesa/statements, multipart {file} (admins) -> the statement's comparison. */
export function uploadStatement(file: File) {
  return request<ResponseOf<typeof uploadEndpoint>>('POST', uploadEndpoint.path, { body: { file } }, { file: true });
}

export function useUploadStatement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadStatement,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reconciliation.all }),
  });
}
