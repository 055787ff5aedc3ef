import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/**
 * Backups (/backups, admin): the files in BACKUP_DIR, "Back up now", downloads, and whether the
 * last backup failed or is too old (decision 023).
 */

/** Hours without a successful backup after which the dashboard and /metrics alert. */
export const BACKUP_MAX_AGE_HOURS = 26;

export const BackupFile = z.object({
  name: z.string(),
  created_at: z.string(),
  size_bytes: z.number(),
  file_sha256: z.string(),
  encrypted: z.boolean(),
  /** Read back after writing: it decrypts, decompresses and matches its manifest's checksum. */
  verified: z.boolean(),
  database: z.enum(['postgres', 'pglite']),
  schema_migration: z.string(),
});
export type BackupFile = z.infer<typeof BackupFile>;

export const BackupHealth = z.object({
  last_ok_at: z.string().nullable(),
  last_failure: z.object({ at: z.string(), error: z.string() }).nullable(),
  /** A sentence for the dashboard when the last backup failed or none succeeded for 26 hours; else null. */
  alert: z.string().nullable(),
});
export type BackupHealth = z.infer<typeof BackupHealth>;

export const backupTexts = {
  made: 'Backup made and verified',
  notFound: 'There is no such backup',
} as const;

export const listBackups = endpoint({
  method: 'GET',
  path: '/api/backups',
  tag: 'backups',
  summary: 'The backups in BACKUP_DIR, newest first, and the health of the backup job',
  access: 'manage:backups',
  response: z.object({
    backups: z.array(BackupFile),
    health: BackupHealth,
    schedule: z.string(),
    encrypted: z.boolean(),
  }),
});

export const backupHealth = endpoint({
  method: 'GET',
  path: '/api/backups/health',
  tag: 'backups',
  summary: 'Whether the last backup failed or none succeeded for 26 hours (the dashboard alert)',
  access: 'manage:backups',
  response: BackupHealth,
});

export const createBackup = endpoint({
  method: 'POST',
  path: '/api/backups',
  tag: 'backups',
  summary: 'Back up now: one verified backup file into BACKUP_DIR (audited)',
  access: 'manage:backups',
  response: z.object({ message: z.string(), backup: BackupFile }),
});

export const BackupDownloadQuery = z.object({
  name: z.string({ message: 'Choose a backup' }).min(1, 'Choose a backup').max(200),
});

export const downloadBackup = endpoint({
  method: 'GET',
  path: '/api/backups/download',
  tag: 'backups',
  summary: 'The backup file itself',
  access: 'manage:backups',
  query: BackupDownloadQuery,
  response: z.unknown(),
});
