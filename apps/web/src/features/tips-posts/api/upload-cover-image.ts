import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadCoverImage as uploadEndpoint, type ResponseOf } from '@betdesk/contract';
import { request } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/images/upload, multipart {title, image} (admins) -> image_type. */
export function uploadCoverImage(input: { title: string; image: File }) {
  return request<ResponseOf<typeof uploadEndpoint>>('POST', uploadEndpoint.path, { body: input }, { file: true });
}

export function useUploadCoverImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadCoverImage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tips.posts }),
  });
}
