import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createBackup, downloadBackup, listBackups } from '@betdesk/contract';
import { callEndpoint, downloadFile } from '@/lib/http.ts';

/** GET /api/backups -> the files in BACKUP_DIR and the job's health. */
export function useBackups() {
  return useQuery(queryOptions({ queryKey: ['backups'], queryFn: () => callEndpoint(listBackups) }));
}

/** POST /api/backups: back up now. */
export function useCreateBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(createBackup),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['backups'] }),
  });
}

/** GET /api/backups/download?name= : the file, saved under its own name. */
export function downloadBackupFile(name: string): Promise<void> {
  return downloadFile(downloadBackup.path, { name }, name);
}
