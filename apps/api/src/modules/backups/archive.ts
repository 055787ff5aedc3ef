import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip, gzipSync } from 'node:zlib';

/**
 * One backup file: gzip( manifest as one JSON line + "\n" + the SQL dump ), optionally sealed with
 * BACKUP_KEY (AES-256-GCM): "BDENC1\n" + iv (12 bytes) + tag (16 bytes) + ciphertext.
 * Decision 023.
 *
 * Every step streams (decision 030): the dump is hashed and compressed to a staging file as it
 * comes, then the manifest (which needs the dump's checksum) is written as a first gzip member and
 * the compressed dump copied after it as a second (gunzip reads concatenated members as one). The
 * GCM tag, known only at the end, is written into its slot in the header last. Reading streams the
 * same way, so neither backing up nor restoring holds the database in memory.
 */
export const BACKUP_FORMAT = 'betdesk-backup-1';
const ENCRYPTED_MAGIC = Buffer.from('BDENC1\n');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = ENCRYPTED_MAGIC.length + IV_BYTES + TAG_BYTES;
/** A manifest is a few kB; a first line longer than this is not one. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

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

const NOT_DECRYPTABLE = 'The backup cannot be decrypted: BACKUP_KEY is not the key it was made with, or the file is damaged.';
const NEEDS_KEY = 'This backup is encrypted: set BACKUP_KEY to the key it was made with.';

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of a file read in 1 MB pieces (what `sha256sum` prints). */
export function sha256OfFile(path: string): string {
  const hash = createHash('sha256');
  const piece = Buffer.alloc(1024 * 1024);
  const fd = openSync(path, 'r');
  try {
    for (let read = readSync(fd, piece); read > 0; read = readSync(fd, piece)) hash.update(piece.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** Passes bytes through unchanged, hashing and counting them. */
class Measure extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

/** AES-256-GCM over a stream; the tag is read with `tag()` once the stream has finished. */
export function encryptStream(key: Buffer, iv: Buffer): Transform & { tag(): Buffer } {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, cipher.update(chunk));
    },
    flush(done) {
      done(null, cipher.final());
    },
  });
  return Object.assign(stream, { tag: () => cipher.getAuthTag() });
}

/**
 * The inverse of encryptStream. Its plaintext is released before the tag is checked (at the end),
 * so a reader must not act on it until the stream has finished without error: a restore verifies
 * the whole file first, and the loader aborts rather than commits on a late error.
 */
export function decryptStream(key: Buffer, iv: Buffer, tag: Buffer): Transform {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, decipher.update(chunk));
    },
    flush(done) {
      try {
        done(null, decipher.final());
      } catch {
        done(new BackupError(NOT_DECRYPTABLE));
      }
    },
  });
}

/** Hashes, counts and gzips a dump into `to` as it streams: its checksum and size for the manifest. */
export async function compressDump(dump: Readable, to: string): Promise<{ sha256: string; bytes: number }> {
  const measure = new Measure();
  await pipeline(dump, measure, createGzip({ level: 6 }), createWriteStream(to, { mode: 0o600 }));
  return { sha256: measure.hash.digest('hex'), bytes: measure.bytes };
}

/** Writes the backup file `to`: the manifest's gzip member, then the compressed dump, sealed with `key` if any. */
export async function sealBackup(manifest: BackupManifest, compressedDump: string, to: string, key: Buffer | undefined): Promise<void> {
  const head = gzipSync(Buffer.from(`${JSON.stringify(manifest)}\n`));
  async function* content(): AsyncGenerator<Buffer> {
    yield head;
    for await (const chunk of createReadStream(compressedDump)) yield chunk as Buffer;
  }
  if (!key) {
    await pipeline(Readable.from(content()), createWriteStream(to, { mode: 0o600 }));
    return;
  }
  const iv = randomBytes(IV_BYTES);
  const out = createWriteStream(to, { mode: 0o600 });
  // The tag's slot is zeros until the ciphertext is written.
  out.write(Buffer.concat([ENCRYPTED_MAGIC, iv, Buffer.alloc(TAG_BYTES)]));
  const cipher = encryptStream(key, iv);
  await pipeline(Readable.from(content()), cipher, out);
  const file = await open(to, 'r+');
  try {
    await file.write(cipher.tag(), 0, TAG_BYTES, ENCRYPTED_MAGIC.length + IV_BYTES);
  } finally {
    await file.close();
  }
}

/** Whether a file is sealed with BACKUP_KEY (its header), read without loading it. */
export function isEncryptedFile(path: string): boolean {
  const head = Buffer.alloc(ENCRYPTED_MAGIC.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  return head.equals(ENCRYPTED_MAGIC);
}

function readHeader(path: string): { iv: Buffer; tag: Buffer } {
  const head = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(path, 'r');
  try {
    if (readSync(fd, head, 0, HEADER_BYTES, 0) < HEADER_BYTES) throw new BackupError(NOT_DECRYPTABLE);
  } finally {
    closeSync(fd);
  }
  const ivAt = ENCRYPTED_MAGIC.length;
  return { iv: head.subarray(ivAt, ivAt + IV_BYTES), tag: head.subarray(ivAt + IV_BYTES, HEADER_BYTES) };
}

/** Splits the manifest line off the decompressed content and checks the dump that follows against it. */
class ManifestThenDump extends Transform {
  manifest: BackupManifest | null = null;
  private head: Buffer[] = [];
  private headBytes = 0;
  private readonly dump = new Measure();

  constructor(private readonly onManifest: ((manifest: BackupManifest) => void) | undefined) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    try {
      if (this.manifest) return done(null, this.measured(chunk));
      const newline = chunk.indexOf(0x0a);
      if (newline < 0) {
        this.head.push(chunk);
        this.headBytes += chunk.length;
        if (this.headBytes > MAX_MANIFEST_BYTES) throw new BackupError('The file is not a Betdesk backup: it has no manifest.');
        return done();
      }
      this.manifest = parseManifest(Buffer.concat([...this.head, chunk.subarray(0, newline)]));
      this.head = [];
      this.onManifest?.(this.manifest);
      done(null, this.measured(chunk.subarray(newline + 1)));
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: (error?: Error | null) => void): void {
    if (!this.manifest) return done(new BackupError('The file is not a Betdesk backup: it has no manifest.'));
    const actual = this.dump.hash.digest('hex');
    if (actual !== this.manifest.dump_sha256) {
      return done(
        new BackupError(`Checksum mismatch: the manifest says ${this.manifest.dump_sha256}, the dump is ${actual}. The file is damaged; nothing was loaded.`),
      );
    }
    done();
  }

  private measured(chunk: Buffer): Buffer {
    this.dump.hash.update(chunk);
    this.dump.bytes += chunk.length;
    return chunk;
  }
}

function parseManifest(line: Buffer): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(line.toString('utf8')) as BackupManifest;
  } catch {
    throw new BackupError('The file is not a Betdesk backup: it has no manifest.');
  }
  if (manifest?.format !== BACKUP_FORMAT) throw new BackupError(`The file is not a Betdesk backup (format ${String(manifest?.format)}).`);
  return manifest;
}

/**
 * Reads a backup file as a stream: decrypts it (when sealed), decompresses it, hands the manifest
 * to `onManifest` as soon as it is read (which may throw to stop), writes the dump into `into` (or
 * drops it), and checks the GCM tag and the dump's checksum at the end. Throws BackupError naming
 * what is wrong. Also answers the SHA-256 of the file as stored.
 */
export async function readBackup(
  path: string,
  key: Buffer | undefined,
  options: { into?: Writable; onManifest?: (manifest: BackupManifest) => void } = {},
): Promise<{ manifest: BackupManifest; fileSha256: string }> {
  const encrypted = isEncryptedFile(path);
  if (encrypted && !key) throw new BackupError(NEEDS_KEY);
  const file = new Measure();
  const split = new ManifestThenDump(options.onManifest);
  const stages: (Readable | Writable)[] = [createReadStream(path), file];
  if (encrypted) {
    const { iv, tag } = readHeader(path);
    stages.push(skipBytes(HEADER_BYTES), decryptStream(key!, iv, tag));
  }
  stages.push(createGunzip(), split, options.into ?? discard());
  try {
    await pipeline(stages);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) {
      // Decrypted garbage does not decompress: with a key, the key (or the file) is wrong.
      throw new BackupError(encrypted ? NOT_DECRYPTABLE : 'The file is not a Betdesk backup (it is not gzip-compressed) or it is damaged.');
    }
    throw error;
  }
  return { manifest: split.manifest!, fileSha256: file.hash.digest('hex') };
}

function skipBytes(count: number): Transform {
  let left = count;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (left >= chunk.length) {
        left -= chunk.length;
        return done();
      }
      const rest = chunk.subarray(left);
      left = 0;
      done(null, rest);
    },
  });
}

function discard(): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
}

/** Collects a stream's text (the embedded database loads its dump as one string). */
export function collectText(): Writable & { text(): string } {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return Object.assign(sink, { text: () => Buffer.concat(chunks).toString('utf8') });
}
