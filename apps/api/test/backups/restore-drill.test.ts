import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_CATEGORY_ID } from '@betdesk/contract';
import { assertEmptyTarget, readFigures, type RestoreTarget } from '../../src/modules/backups/dump.ts';
import { BackupError, restoreBackup, runBackup } from '../../src/modules/backups/service.ts';
import { storeC2bConfirmation } from '../../src/modules/mpesa/service.ts';
import { seedDemo } from '../../src/seed/demo.ts';
import { runCommand } from '../commands.ts';
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
}, 240_000);

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
}, 240_000);

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
}, 240_000);

/** The shell block of OPERATIONS.md §8's "Restoring" that follows `label` ("PostgreSQL:", "Embedded:"). */
function runbookBlock(label: string): string {
  const runbook = readFileSync(new URL('../../../../docs/OPERATIONS.md', import.meta.url), 'utf8');
  const restoring = runbook.slice(runbook.indexOf('### Restoring'));
  const block = /```sh\n([\s\S]*?)```/.exec(restoring.slice(restoring.indexOf(`\n${label}\n`)));
  if (!block) throw new Error(`OPERATIONS.md §8 has no shell block after "${label}"`);
  return block[1]!;
}

/** `text` with each placeholder replaced; a placeholder the runbook no longer has fails the drill. */
function fillIn(text: string, values: [RegExp | string, string][]): string {
  return values.reduce((done, [placeholder, value]) => {
    const filled = done.replace(placeholder, value);
    expect(filled, `the runbook's ${String(placeholder)}`).not.toBe(done);
    return filled;
  }, text);
}

/** Runs a runbook block with sh -e from the repository's root, as an operator would. */
function runAsOperator(script: string, env: Record<string, string>) {
  const { DATABASE_URL: _url, SECRETS_KEY: _key, DATA_DIR: _dir, BACKUP_DIR: _backups, ...rest } = process.env;
  return runCommand('sh', ['-e', '-c', script], {
    cwd: new URL('../../../..', import.meta.url).pathname,
    env: { ...rest, NODE_ENV: 'test', ...env },
    timeoutMs: 240_000,
  });
}

it.skipIf(!process.env.DATABASE_URL)("restores by OPERATIONS.md §8's own commands into a database owned by the service's role", async () => {
  const server = new URL(process.env.DATABASE_URL!);
  const suffix = randomBytes(4).toString('hex');
  const role = `betdesk_svc_${suffix}`;
  const name = `betdesk_runbook_${suffix}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  // The service's role: no superuser, may sign in (§1's `createuser betdesk`).
  await admin.query(`create role ${role} login`);
  // `sudo -u postgres X` runs X as the server's superuser: here, the test server's, by the libpq settings.
  const bin = join(dir, `bin-${suffix}`);
  mkdirSync(bin);
  writeFileSync(join(bin, 'sudo'), `#!/bin/sh\n[ "$1" = "-u" ] || exit 64\nuser="$2"; shift 2\nPGUSER="$user" exec "$@"\n`);
  chmodSync(join(bin, 'sudo'), 0o755);
  try {
    const script = fillIn(runbookBlock('PostgreSQL:'), [
      [/betdesk_restored/g, name],
      [/-O betdesk /, `-O ${role} `],
      [/postgres:\/\/betdesk@127\.0\.0\.1:5432\//, `postgres://${role}@${server.hostname}:${server.port || '5432'}/`],
      ['<the key>', t.deps.config.secretsKey.toString('hex')],
      [/\[BACKUP_KEY=<key>\] /, ''],
      [/--file \S+/, `--file ${backupFile}`],
    ]);
    const run = await runAsOperator(script, {
      PATH: `${bin}:${process.env.PATH}`,
      PGHOST: server.hostname,
      PGPORT: server.port || '5432',
    });
    expect(run.err).toBe('');
    expect(run.status).toBe(0);
    expect(run.out).toContain(`into PostgreSQL database "${name}" on ${server.hostname}:${server.port || '5432'}.`);
    const restoredUrl = new URL(server.toString());
    restoredUrl.pathname = `/${name}`;
    const figures = await readFigures(async (text) => {
      const client = new pg.Client({ connectionString: restoredUrl.toString() });
      await client.connect();
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    });
    const made = JSON.parse(readFileSync(`${backupFile}.json`, 'utf8')).manifest;
    expect(figures.money_totals_cents).toEqual(made.money_totals_cents);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`drop role if exists ${role}`);
    await admin.end();
  }
}, 300_000);

it.skipIf(!!process.env.DATABASE_URL)("restores by OPERATIONS.md §8's own commands into a new embedded data directory", async () => {
  const dataDir = join(dir, `data-new-${randomBytes(4).toString('hex')}`);
  const safe = join(dir, `safe-${randomBytes(4).toString('hex')}`);
  mkdirSync(safe);
  writeFileSync(
    join(safe, 'local-secrets.json'),
    JSON.stringify({ secretsKey: t.deps.config.secretsKey.toString('hex'), webhookSecret: t.deps.config.webhookSecret }),
  );
  const script = fillIn(runbookBlock('Embedded:'), [
    [/\/srv\/betdesk-data-new/g, dataDir],
    ['/safe/place/local-secrets.json', join(safe, 'local-secrets.json')],
    [/--file \S+/, `--file ${backupFile}`],
  ]);
  const run = await runAsOperator(script, {});
  expect(run.err).toBe('');
  expect(run.status).toBe(0);
  expect(run.out).toContain(`into the embedded database in ${join(dataDir, 'pglite')}.`);
}, 300_000);
