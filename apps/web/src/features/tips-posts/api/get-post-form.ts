import { queryOptions, useQuery } from '@tanstack/react-query';
import { newPostForm } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/posts/add -> post_categories, image_types, bet_categories. */
export function getPostForm() {
  return callEndpoint(newPostForm);
}

export function postFormQueryOptions() {
  return queryOptions({ queryKey: queryKeys.tips.postForm(), queryFn: getPostForm });
}

export function usePostForm() {
  return useQuery(postFormQueryOptions());
}
