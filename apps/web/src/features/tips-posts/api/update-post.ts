import { useMutation, useQueryClient } from '@tanstack/react-query';
import { updatePost as updatePostEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/posts/update {post_id, ...post fields} -> post.id. */
export function updatePost(body: BodyOf<typeof updatePostEndpoint>) {
  return callEndpoint(updatePostEndpoint, { body });
}

export function useUpdatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePost,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tips.posts }),
  });
}
