import { queryOptions, useQuery } from '@tanstack/react-query';
import { listSettings } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/settings -> settings. */
export function getSettings() {
  return callEndpoint(listSettings);
}

export function settingsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.settings.all, queryFn: getSettings });
}

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
