import { queryOptions, useQuery } from '@tanstack/react-query';
import { smsTipsForm } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** The bet categories a record can be shown for (every category has one SMS tip row). */
export async function getBetCategories() {
  const { posts } = await callEndpoint(smsTipsForm);
  return posts.map((p) => ({ id: p.bet_category_id, name: p.bet_category, code: p.code }));
}

export function betCategoriesQueryOptions() {
  return queryOptions({ queryKey: queryKeys.tips.recordCategories(), queryFn: getBetCategories });
}

export function useBetCategories() {
  return useQuery(betCategoriesQueryOptions());
}
