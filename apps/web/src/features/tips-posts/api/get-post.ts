import { queryOptions, useQuery } from '@tanstack/react-query';
import { viewPost } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/posts/view ?id -> post. */
export function getPost(id: number) {
  return callEndpoint(viewPost, { query: { id } });
}

export function postQueryOptions(id: number) {
  return queryOptions({ queryKey: queryKeys.tips.post(id), queryFn: () => getPost(id) });
}

export function usePost(id: number) {
  return useQuery(postQueryOptions(id));
}
