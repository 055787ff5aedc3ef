import { queryOptions, useQuery } from '@tanstack/react-query';
import { listSettings } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/**
 * The opt-out line every promotional SMS ends with (setting `sms_opt_out_text`), read once from the
 * settings (the broadcasts screen is an admin's, as the settings are) so the composer counts the
 * parts of the text as it leaves.
 */
export function optOutTextQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.settings.all,
    queryFn: () => callEndpoint(listSettings),
    select: (data) => {
      const found = data.settings.find((s) => s.key === 'sms_opt_out_text')?.value;
      return typeof found === 'string' ? found : '';
    },
    staleTime: 5 * 60_000,
  });
}

export function useOptOutText() {
  return useQuery(optOutTextQueryOptions());
}
