import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PostCategoryForm, storePostCategory as storePostCategoryEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/catalogue/post-categories/store {id?, name}. */
export const storePostCategoryInputSchema = PostCategoryForm;

export function storePostCategory(body: BodyOf<typeof storePostCategoryEndpoint>) {
  return callEndpoint(storePostCategoryEndpoint, { body });
}

export function useStorePostCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: storePostCategory,
    // The post form offers post categories, so it refetches too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.catalogue.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.tips.posts }),
      ]),
  });
}
