import { queryOptions, useQuery } from '@tanstack/react-query';
import { smsTipsPrices, webTipsPrices } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export type PricesMedium = 'web' | 'sms';

/** GET /api/tips/prices/web-tips or /sms-tips -> packages. */
export function getPackages(medium: PricesMedium) {
  return callEndpoint(medium === 'web' ? webTipsPrices : smsTipsPrices);
}

export function packagesQueryOptions(medium: PricesMedium) {
  return queryOptions({ queryKey: queryKeys.tips.packages(medium), queryFn: () => getPackages(medium) });
}

export function usePackages(medium: PricesMedium) {
  return useQuery(packagesQueryOptions(medium));
}
