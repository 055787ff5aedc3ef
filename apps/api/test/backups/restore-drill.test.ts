import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_CATEGORY_ID } from '@betdesk/contract';
import { assertEmptyTarget, readFigures, type RestoreTarget } from '../../src/modules/backups/dump.ts';
import { BackupError, restoreBackup, runBackup } from '../../src/modules/backups/service.ts';
import { storeC2bConfirmation } from '../../src/modules/mpesa/service.ts';
import { seedDemo } from '../../src/seed/demo.ts';
import { createTestApp, serverDatabase, type TestApp } from '../helpers.ts';

/**
 * The restore drill (decision 023): demo data plus payments, a backup, a restore into a fresh
 * target, and every table's row count and every money total compared, on the database under test.
 */
let t: TestApp;
let dir: string;
const targets: { drop(): Promise<void> }[] = [];

async function freshTarget(): Promise<RestoreTarget> {
  const server = await serverDatabase('betdesk_restore');
  if (!server) return { kind: 'pglite', dataDir: join(dir, `restored-${randomBytes(4).toString('hex')}`) };
  targets.push(server);
  return { kind: 'postgres', url: server.url };
}

let backupFile: string;

/** A file of these bytes (restores read files, not buffers). */
function asFile(bytes: Buffer): string {
  const path = join(dir, `case-${randomBytes(4).toString('hex')}.sql.gz`);
  writeFileSync(path, bytes);
  return path;
}
let restored: RestoreTarget;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'betdesk-drill-'));
  t = await createTestApp({ env: { BACKUP_DIR: dir } });
  await t.addUser({ email: 'admin@betdesk.local', categoryId: ADMIN_CATEGORY_ID });
  expect(await seedDemo(t.deps)).toBe(true);
  // And a payment of today, beside the demo history.
  await t.deps.db.transaction((tx) =>
    storeC2bConfirmation(
      tx,
      [],
      {
        TransactionType: 'Pay Bill',
        TransID: 'TDRILL0001',
        TransTime: '20261125101500',
        TransAmount: '1234.50',
        BusinessShortCode: '600984',
        BillRefNumber: 'NOTHING',
        InvoiceNumber: '',
        OrgAccountBalance: '',
        ThirdPartyTransID: '',
        MSISDN: '254712000111',
        FirstName: 'DRILL',
        MiddleName: '',
        LastName: '',
      },
      null,
    ),
  );
  // The demo's six weeks go through the payment ingestion: slow on a busy machine.
}, 300_000);

afterAll(async () => {
  await t.close();
  for (const target of targets) await target.drop();
  rmSync(dir, { recursive: true, force: true });
});

it('backs up, restores into a fresh target, and every row count and money total matches', async () => {
  const made = await runBackup(t.deps.database, t.deps.config, 'cli');
  // The source as it is now (the run's own row was written before the dump).
  const before = await readFigures(async (text) => (await t.deps.database.executeSql(text)).rows);
  backupFile = made.file;
  expect(made.info.verified).toBe(true);
  expect(made.manifest.row_counts).toEqual(before.row_counts);
  expect(made.manifest.money_totals_cents).toEqual(before.money_totals_cents);
  expect(Number(made.manifest.money_totals_cents['mpesa_payments.amount_cents'])).toBeGreaterThan(123_450);
  expect(made.manifest.row_counts.mpesa_payments).toBeGreaterThan(20);
  expect(made.manifest.schema.migration).toMatch(/^\d{4}_/);

  const target = await freshTarget();
  const report = await restoreBackup(backupFile, {
    target,
    backupKey: undefined,
    secretsKey: t.deps.config.secretsKey,
  });
  // Read back from the restored database, table by table and money column by money column.
  expect(report.figures.row_counts).toEqual(before.row_counts);
  expect(report.figures.money_totals_cents).toEqual(before.money_totals_cents);
  expect(Object.keys(report.figures.row_counts).length).toBeGreaterThan(30);
  restored = target;
}, 120_000);

it('refuses a damaged file, another SECRETS_KEY, a newer schema and a non-empty target, loading nothing', async () => {
  const file = readFileSync(backupFile);
  const target = await freshTarget();
  const restore = (bytes: Buffer, secretsKey = t.deps.config.secretsKey) =>
    restoreBackup(asFile(bytes), { target, backupKey: undefined, secretsKey });

  const damaged = Buffer.from(file);
  damaged[damaged.length - 20] = damaged[damaged.length - 20]! ^ 0xff;
  await expect(restore(damaged)).rejects.toThrow(BackupError);

  await expect(restore(file, Buffer.alloc(32, 7))).rejects.toThrow(/sealed with another SECRETS_KEY/);

  const { gunzipSync, gzipSync } = await import('node:zlib');
  const content = gunzipSync(file);
  const newline = content.indexOf(0x0a);
  const manifest = JSON.parse(content.subarray(0, newline).toString());
  const tampered = Buffer.from(content.subarray(newline + 1));
  tampered[tampered.length - 5] = 0x21;
  await expect(restore(gzipSync(Buffer.concat([content.subarray(0, newline + 1), tampered])))).rejects.toThrow(/Checksum mismatch/);

  manifest.schema = { migration: '9999_future', when: Date.now() + 365 * 86_400_000 };
  const newer = gzipSync(Buffer.concat([Buffer.from(`${JSON.stringify(manifest)}\n`), content.subarray(newline + 1)]));
  await expect(restore(newer)).rejects.toThrow(/newer than this version of Betdesk knows/);

  // Nothing was loaded by the refusals: the target is still empty.
  await expect(assertEmptyTarget(target)).resolves.toBeUndefined();
  // The target restored by the drill above holds data: refused.
  await expect(
    restoreBackup(backupFile, { target: restored, backupKey: undefined, secretsKey: t.deps.config.secretsKey }),
  ).rejects.toThrow(/not empty/);
}, 120_000);

it('encrypts with BACKUP_KEY and asks for the key to restore', async () => {
  const key = randomBytes(32);
  const config = { ...t.deps.config, backup: { ...t.deps.config.backup, key } };
  const made = await runBackup(t.deps.database, config, 'manual');
  expect(made.info.encrypted).toBe(true);
  const bytes = readFileSync(made.file);
  expect(bytes.includes(Buffer.from('mpesa_payments'))).toBe(false);
  const target = await freshTarget();
  await expect(restoreBackup(made.file, { target, backupKey: undefined, secretsKey: t.deps.config.secretsKey })).rejects.toThrow(/encrypted/);
  await expect(
    restoreBackup(made.file, { target, backupKey: randomBytes(32), secretsKey: t.deps.config.secretsKey }),
  ).rejects.toThrow(/cannot be decrypted/);
  // With its key it restores, streamed through the decryption.
  const report = await restoreBackup(made.file, { target, backupKey: key, secretsKey: t.deps.config.secretsKey });
  expect(report.figures.row_counts).toEqual(made.manifest.row_counts);
  expect(report.figures.money_totals_cents).toEqual(made.manifest.money_totals_cents);
}, 60_000);
