import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { allPosts } from '@betdesk/contract';
import { getList, type ListQueryParams } from '@/components/data-table/list-query.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tips/posts/all with the table's query -> posts, total_records. */
export function getPosts(query: ListQueryParams) {
  return getList(allPosts, query);
}

export function postsQueryOptions(query: ListQueryParams) {
  return queryOptions({
    queryKey: queryKeys.tips.postList(query),
    queryFn: () => getPosts(query),
    placeholderData: keepPreviousData,
  });
}

export function usePosts(query: ListQueryParams) {
  return useQuery(postsQueryOptions(query));
}
