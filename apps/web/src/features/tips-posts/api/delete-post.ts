import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deletePost as deletePostEndpoint } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** POST /api/tips/posts/delete {post_id}; a failure is only logged (spec 8). */
export function deletePost(postId: number) {
  return callEndpoint(deletePostEndpoint, { body: { post_id: postId } }, { failure: 'log' });
}

export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePost,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['tips', 'posts'] }),
  });
}
