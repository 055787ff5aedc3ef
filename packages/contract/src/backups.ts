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
  linkExpired: 'This download link has expired or is not valid: download the backup again from the Backups screen',
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

/**
 * A browser cannot put the bearer header on a plain link, and fetching the file into a blob holds
 * all of it in the tab's memory. The screen asks for a short-lived signed link instead and lets
 * the browser download it natively (streamed to disk, in its download bar).
 */
export const createBackupDownloadLink = endpoint({
  method: 'POST',
  path: '/api/backups/download-link',
  tag: 'backups',
  summary: 'A signed link to one backup file, valid for a minute',
  access: 'manage:backups',
  body: BackupDownloadQuery,
  response: z.object({ url: z.string(), expires_at: z.string() }),
});

export const BackupFileByTicketQuery = z.object({
  ticket: z.string({ message: 'The download link is incomplete' }).min(1, 'The download link is incomplete').max(1000),
});

export const downloadBackupByTicket = endpoint({
  method: 'GET',
  path: '/api/backups/file',
  tag: 'backups',
  summary: 'The backup file a signed link names (the ticket is the permission)',
  access: 'public',
  query: BackupFileByTicketQuery,
  response: z.unknown(),
});
