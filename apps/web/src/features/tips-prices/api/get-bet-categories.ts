import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCatalogue } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/catalogue, read for its bet categories: the choices of the Add package form. */
export function getBetCategories() {
  return callEndpoint(getCatalogue);
}

export function betCategoriesQueryOptions() {
  return queryOptions({ queryKey: queryKeys.catalogue.all, queryFn: getBetCategories });
}

export function useBetCategories(enabled: boolean) {
  return useQuery({ ...betCategoriesQueryOptions(), enabled });
}
