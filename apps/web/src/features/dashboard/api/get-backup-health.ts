import { queryOptions, useQuery } from '@tanstack/react-query';
import { backupHealth } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/backups/health (admins): the banner when the last backup failed or none for 26 hours. */
export function useBackupHealth(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.dashboard.backupHealth(),
      queryFn: () => callEndpoint(backupHealth, {}, { failure: 'log' }),
      enabled,
    }),
  );
}
