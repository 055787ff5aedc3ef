import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * One backup file: gzip( manifest as one JSON line + "\n" + the SQL dump ), optionally sealed with
 * BACKUP_KEY (AES-256-GCM): "BDENC1\n" + iv (12 bytes) + tag (16 bytes) + ciphertext.
 * Decision 023.
 */
export const BACKUP_FORMAT = 'betdesk-backup-1';
const ENCRYPTED_MAGIC = Buffer.from('BDENC1\n');

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  created_at: string;
  database: 'postgres' | 'pglite';
  /** The last migration applied to the backed-up database (tag of the journal and its timestamp). */
  schema: { migration: string; when: number };
  /** Fingerprint of the SECRETS_KEY that sealed the encrypted fields (platform passwords). */
  secrets_key_fingerprint: string;
  /** Rows of every table of the public schema. */
  row_counts: Record<string, number>;
  /** Sum of every money column (`*_cents`), as "table.column": cents, written as a decimal string. */
  money_totals_cents: Record<string, string>;
  dump_sha256: string;
  dump_bytes: number;
}

export class BackupError extends Error {}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export function packBackup(manifest: BackupManifest, dump: Buffer, key: Buffer | undefined): Buffer {
  const plain = gzipSync(Buffer.concat([Buffer.from(`${JSON.stringify(manifest)}\n`), dump]), { level: 6 });
  if (!key) return plain;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([ENCRYPTED_MAGIC, iv, cipher.getAuthTag(), body]);
}

export function isEncrypted(file: Buffer): boolean {
  return file.subarray(0, ENCRYPTED_MAGIC.length).equals(ENCRYPTED_MAGIC);
}

/** The manifest and the dump of a backup file; throws BackupError naming what is wrong. */
export function unpackBackup(file: Buffer, key: Buffer | undefined): { manifest: BackupManifest; dump: Buffer } {
  let plain = file;
  if (isEncrypted(file)) {
    if (!key) throw new BackupError('This backup is encrypted: set BACKUP_KEY to the key it was made with.');
    const start = ENCRYPTED_MAGIC.length;
    const decipher = createDecipheriv('aes-256-gcm', key, file.subarray(start, start + 12));
    decipher.setAuthTag(file.subarray(start + 12, start + 28));
    try {
      plain = Buffer.concat([decipher.update(file.subarray(start + 28)), decipher.final()]);
    } catch {
      throw new BackupError('The backup cannot be decrypted: BACKUP_KEY is not the key it was made with, or the file is damaged.');
    }
  }
  let content: Buffer;
  try {
    content = gunzipSync(plain);
  } catch {
    throw new BackupError('The file is not a Betdesk backup (it is not gzip-compressed) or it is damaged.');
  }
  const newline = content.indexOf(0x0a);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(content.subarray(0, newline).toString('utf8')) as BackupManifest;
  } catch {
    throw new BackupError('The file is not a Betdesk backup: it has no manifest.');
  }
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`The file is not a Betdesk backup (format ${String(manifest.format)}).`);
  const dump = content.subarray(newline + 1);
  const actual = sha256(dump);
  if (actual !== manifest.dump_sha256) {
    throw new BackupError(`Checksum mismatch: the manifest says ${manifest.dump_sha256}, the dump is ${actual}. The file is damaged; nothing was loaded.`);
  }
  return { manifest, dump };
}
