import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCatalogue as getCatalogueEndpoint } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/catalogue -> bet_categories, post_categories, plans. */
export function getCatalogue() {
  return callEndpoint(getCatalogueEndpoint);
}

export function catalogueQueryOptions() {
  return queryOptions({ queryKey: queryKeys.catalogue.all, queryFn: getCatalogue });
}

export function useCatalogue() {
  return useQuery(catalogueQueryOptions());
}
