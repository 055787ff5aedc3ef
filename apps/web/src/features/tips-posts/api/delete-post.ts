import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deletePost as deletePostEndpoint } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { showToast } from '@/lib/feedback.tsx';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/posts/delete {post_id}; a failure is only logged (spec 8). */
export function deletePost(postId: number) {
  return callEndpoint(deletePostEndpoint, { body: { post_id: postId } }, { failure: 'log' });
}

/**
 * Trashing says so. The lists are fetched again, but not the trashed post's own page (the screen
 * leaves it): fetching it answered 404 "This post does not exist or was trashed." as an error toast.
 */
export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePost,
    onSuccess: async (_answer, postId) => {
      showToast('success', 'Post trashed');
      await queryClient.invalidateQueries({
        queryKey: queryKeys.tips.posts,
        predicate: (query) => !(['view', 'edit'].includes(String(query.queryKey[2])) && query.queryKey[3] === postId),
      });
    },
  });
}
