import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addPost as addPostEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/posts/add -> post.id. */
export function addPost(body: BodyOf<typeof addPostEndpoint>) {
  return callEndpoint(addPostEndpoint, { body });
}

export function useAddPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPost,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tips.posts }),
  });
}
