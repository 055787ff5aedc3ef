import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createBackup, createBackupDownloadLink, listBackups } from '@betdesk/contract';
import { callEndpoint, saveLink } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/backups -> the files in BACKUP_DIR and the job's health. */
export function useBackups() {
  return useQuery(queryOptions({ queryKey: queryKeys.backups.all, queryFn: () => callEndpoint(listBackups) }));
}

/** POST /api/backups: back up now. */
export function useCreateBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(createBackup),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.backups.all }),
  });
}

/**
 * POST /api/backups/download-link, then the browser follows the signed link itself: a backup can
 * be gigabytes, so it downloads natively to disk rather than into a blob in the tab's memory (a
 * plain link cannot carry the bearer header; the ticket in the link is the permission).
 */
export async function downloadBackupFile(name: string): Promise<void> {
  const { url } = await callEndpoint(createBackupDownloadLink, { body: { name } });
  saveLink(url, name);
}
