import { queryOptions, useQuery } from '@tanstack/react-query';
import { editPost } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/posts/edit ?post_id -> post_categories, image_types, bet_categories, post, post_bets. */
export function getPostForEditing(postId: number) {
  return callEndpoint(editPost, { query: { post_id: postId } });
}

export function postForEditingQueryOptions(postId: number) {
  return queryOptions({ queryKey: queryKeys.tips.postForEditing(postId), queryFn: () => getPostForEditing(postId) });
}

export function usePostForEditing(postId: number) {
  return useQuery(postForEditingQueryOptions(postId));
}
