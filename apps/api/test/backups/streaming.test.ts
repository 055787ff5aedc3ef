import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  BACKUP_FORMAT,
  BackupError,
  compressDump,
  readBackup,
  sealBackup,
  sha256OfFile,
  type BackupManifest,
} from '../../src/modules/backups/archive.ts';

/**
 * Backups stream (decision 030): a dump far larger than a stream chunk goes through hashing, gzip
 * and AES-256-GCM to a file and back without the process holding it in memory, and a tampered GCM
 * tag or body is refused.
 */
const DUMP_MB = 64;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'betdesk-stream-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * SQL-like lines, made as they are read (never all in memory), hashed on the way. `onEnd` runs when
 * the last line has been handed over, while the pipeline still holds whatever it has not written.
 */
function generatedDump(bytes: number, onEnd?: () => void): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  let left = bytes;
  let row = 0;
  const stream = new Readable({
    read() {
      if (left <= 0) {
        onEnd?.();
        return void this.push(null);
      }
      const lines: string[] = [];
      for (let size = 0; size < 64 * 1024; ) {
        const line = `${row++}\t${randomBytes(12).toString('hex')}\t${(row * 7919) % 1_000_000}\n`;
        lines.push(line);
        size += line.length;
      }
      const chunk = Buffer.from(lines.join('')).subarray(0, left);
      left -= chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, sha256: () => hash.digest('hex') };
}

// A garbage collection on demand, so the samples count the memory still held, not garbage not yet
// collected (the flag is set at run time; a new context then sees `gc`).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Samples the memory held in the JS heap and in buffers while `work` runs; answers the peak growth. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; bytes: number }> {
  const held = () => {
    collectGarbage();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const start = held();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, held())), 50);
  try {
    const result = await work();
    return { result, bytes: peak - start };
  } finally {
    clearInterval(timer);
  }
}

function manifestFor(dump: { sha256: string; bytes: number }): BackupManifest {
  return {
    format: BACKUP_FORMAT,
    created_at: new Date().toISOString(),
    database: 'postgres',
    schema: { migration: '0000_test', when: 1 },
    secrets_key_fingerprint: 'test',
    row_counts: {},
    money_totals_cents: {},
    dump_sha256: dump.sha256,
    dump_bytes: dump.bytes,
  };
}

it(`backs up and reads back a ${DUMP_MB} MB encrypted dump with memory that does not grow with it`, async () => {
  const key = randomBytes(32);
  const staging = join(dir, 'dump.gz');
  const file = join(dir, 'backup.sql.gz.enc');
  // What the compressed copy holds on disk when the dump's last line is read: a pipeline that
  // streams has written nearly all of it; one that gathers the dump first has written nothing.
  let onDiskAtEnd = -1;
  const source = generatedDump(DUMP_MB * 1024 * 1024, () => (onDiskAtEnd = statSync(staging).size));

  const written = await peakGrowth(async () => {
    const dump = await compressDump(source.stream, staging);
    await sealBackup(manifestFor(dump), staging, file, key);
    return dump;
  });
  expect(written.result.bytes).toBe(DUMP_MB * 1024 * 1024);
  expect(written.result.sha256).toBe(source.sha256());
  const compressed = statSync(staging).size;
  expect(compressed).toBeGreaterThan(16 * 1024 * 1024);
  // Stream buffers (tens of kB each) are all that may lag behind; a quarter of the copy is generous.
  expect(onDiskAtEnd).toBeGreaterThan(compressed * 0.75);
  // Memory: half the dump at most (about 5 MB is seen, 24 MB once on a loaded CI machine): stream
  // buffers and code loaded on first use, not the dump (64 MB) nor its compressed copy.
  expect(written.bytes).toBeLessThan((DUMP_MB / 2) * 1024 * 1024);
  expect(statSync(file).size).toBeGreaterThan(compressed);

  // Read back into a sink that only hashes: the dump that comes out is the one that went in.
  const outHash = createHash('sha256');
  let outBytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      outHash.update(chunk);
      outBytes += chunk.length;
      done();
    },
  });
  const read = await peakGrowth(() => readBackup(file, key, { into: sink }));
  expect(read.result.manifest.dump_sha256).toBe(written.result.sha256);
  expect(read.result.fileSha256).toBe(sha256OfFile(file));
  expect(outBytes).toBe(DUMP_MB * 1024 * 1024);
  expect(outHash.digest('hex')).toBe(written.result.sha256);
  expect(read.bytes).toBeLessThan((DUMP_MB / 2) * 1024 * 1024);
  // A bound on a stuck stream, not a speed check: 64 MB through gzip, AES-GCM and SHA-256 twice took
  // 88 s beside CI's other run on 2 cores and over 120 s with more beside it.
}, 600_000);

it('refuses a tampered GCM tag, a tampered ciphertext and the wrong key, and needs a key at all', async () => {
  const key = randomBytes(32);
  const staging = join(dir, 'small.gz');
  const file = join(dir, 'small.sql.gz.enc');
  // Larger than one 64 kB stream chunk, so the tag is checked after several pieces were decrypted.
  const source = generatedDump(600 * 1024);
  const dump = await compressDump(source.stream, staging);
  await sealBackup(manifestFor(dump), staging, file, key);
  await expect(readBackup(file, key)).resolves.toMatchObject({ manifest: { dump_sha256: dump.sha256 } });

  const bytes = readFileSync(file);
  const tagAt = 'BDENC1\n'.length + 12;
  const badTag = Buffer.from(bytes);
  badTag[tagAt] = badTag[tagAt]! ^ 0x01;
  writeFileSync(join(dir, 'bad-tag.enc'), badTag);
  await expect(readBackup(join(dir, 'bad-tag.enc'), key)).rejects.toThrow(/cannot be decrypted/);

  const badBody = Buffer.from(bytes);
  badBody[bytes.length - 100] = badBody[bytes.length - 100]! ^ 0x01;
  writeFileSync(join(dir, 'bad-body.enc'), badBody);
  await expect(readBackup(join(dir, 'bad-body.enc'), key)).rejects.toThrow(BackupError);

  await expect(readBackup(file, randomBytes(32))).rejects.toThrow(/cannot be decrypted/);
  await expect(readBackup(file, undefined)).rejects.toThrow(/encrypted: set BACKUP_KEY/);
}, 60_000);

it('reads a backup written before streaming (one gzip member) and refuses a dump that does not match its checksum', async () => {
  const { gzipSync } = await import('node:zlib');
  const dump = Buffer.from('select 1;\n'.repeat(10_000));
  const manifest = manifestFor({ sha256: createHash('sha256').update(dump).digest('hex'), bytes: dump.length });
  const file = join(dir, 'old.sql.gz');
  writeFileSync(file, gzipSync(Buffer.concat([Buffer.from(`${JSON.stringify(manifest)}\n`), dump])));
  await expect(readBackup(file, undefined)).resolves.toMatchObject({ manifest: { dump_sha256: manifest.dump_sha256 } });

  const altered = join(dir, 'altered.sql.gz');
  writeFileSync(altered, gzipSync(Buffer.concat([Buffer.from(`${JSON.stringify(manifest)}\n`), dump, Buffer.from('drop table x;\n')])));
  await expect(readBackup(altered, undefined)).rejects.toThrow(/Checksum mismatch/);
});
