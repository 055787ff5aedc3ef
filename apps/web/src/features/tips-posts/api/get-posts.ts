import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { allPosts, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/tips/posts/all ?page&perPage -> posts, total_records. */
export function getPosts(page: number, perPage: PageSize) {
  return callEndpoint(allPosts, { query: { page, perPage } });
}

export function postsQueryOptions(page: number, perPage: PageSize) {
  return queryOptions({
    queryKey: ['tips', 'posts', 'all', page, perPage],
    queryFn: () => getPosts(page, perPage),
    placeholderData: keepPreviousData,
  });
}

export function usePosts(page: number, perPage: PageSize) {
  return useQuery(postsQueryOptions(page, perPage));
}
