import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { BACKUP_MAX_AGE_HOURS } from '@betdesk/contract';
import { describeDatabase, secretsKeyFingerprint, type Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { BackupError, compressDump, readBackup, sealBackup, sha256OfFile, type BackupManifest } from './archive.ts';
import { assertEmptyTarget, dumpDatabase, knownMigrations, loadDump, restoreCheckSql, type Figures, type RestoreTarget } from './dump.ts';
export { knownMigrations } from './dump.ts';
import { listenForBackups } from './control.ts';
import * as q from './queries.ts';

export { BackupError } from './archive.ts';

const FILE_PATTERN = /^betdesk-(\d{8}T\d{6}Z)-(postgres|pglite)\.sql\.gz(\.enc)?$/;

/** What the list screen shows of one file in BACKUP_DIR (from the sidecar written beside it). */
export interface BackupFileInfo {
  name: string;
  created_at: string;
  size_bytes: number;
  /** SHA-256 of the file as written (what `sha256sum` prints). */
  file_sha256: string;
  encrypted: boolean;
  verified: boolean;
  database: 'postgres' | 'pglite';
  schema_migration: string;
}

interface Sidecar extends BackupFileInfo {
  manifest: BackupManifest;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/**
 * While the server holds the embedded database, `npm run backup` asks it for a backup over DATA_DIR's
 * socket (control.ts, decision 023); each request runs a backup made by the command line.
 */
export function startBackupControl(database: Database, config: Config): Promise<() => Promise<void>> {
  return listenForBackups(config.dataDir, (outDir) => runBackup(database, config, 'cli', { outDir }));
}

export interface MadeBackup {
  file: string;
  info: BackupFileInfo;
  manifest: BackupManifest;
}

/**
 * Dumps the database, writes the backup file (atomically: a temporary name, then renamed), reads
 * it back to verify its checksum, and writes the sidecar the list reads. Every step streams
 * through files in `outDir` (decision 030): memory does not grow with the database.
 */
export async function writeBackup(database: Database, config: Config, outDir: string): Promise<MadeBackup> {
  mkdirSync(outDir, { recursive: true });
  const staging = join(outDir, `.staging-${randomBytes(6).toString('hex')}.sql.gz`);
  try {
    const manifest = await dumpDatabase(database, secretsKeyFingerprint(config.secretsKey), (dump) => compressDump(dump, staging));
    const name = `betdesk-${stamp(new Date(manifest.created_at))}-${manifest.database}.sql.gz${config.backup.key ? '.enc' : ''}`;
    const file = join(outDir, name);
    await sealBackup(manifest, staging, `${file}.partial`, config.backup.key);
    renameSync(`${file}.partial`, file);
    rmSync(staging, { force: true });
    // Verified: the file on disk decrypts, decompresses and its dump matches the manifest's checksum.
    const check = await readBackup(file, config.backup.key);
    const info: BackupFileInfo = {
      name,
      created_at: manifest.created_at,
      size_bytes: statSync(file).size,
      file_sha256: check.fileSha256,
      encrypted: Boolean(config.backup.key),
      verified: check.manifest.dump_sha256 === manifest.dump_sha256,
      database: manifest.database,
      schema_migration: manifest.schema.migration,
    };
    const sidecar: Sidecar = { ...info, manifest };
    writeFileSync(`${file}.json`, `${JSON.stringify(sidecar, null, 2)}\n`, { mode: 0o600 });
    return { file, info, manifest };
  } finally {
    rmSync(staging, { force: true });
  }
}

/** A backup as a recorded run: the dashboard, the metrics and the list see failures too. */
const GIVE_THE_SETTINGS = "Give the command the service's settings: BETDESK_ENV_FILE=/etc/betdesk/betdesk.env npm run backup";

/**
 * Refuses a database that is not the one Betdesk runs on, reading only: one without Betdesk's
 * tables, or whose users hold nobody (every install has its first admin; an operations command that
 * did not read its settings opened another). `npm run backup` asks this before it migrates, so the
 * wrong database is left as it was, and the refusal says which database it looked at.
 */
export async function assertBetdeskDatabase(database: Database, config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<void> {
  if (!(await q.hasUsersTable(database.db))) {
    throw new BackupError(`Nothing backed up: ${describeDatabase(config)} holds no Betdesk tables, so it is not the database Betdesk runs on. ${GIVE_THE_SETTINGS}`);
  }
  if (!(await q.holdsAUser(database.db))) {
    throw new BackupError(`Nothing backed up: ${describeDatabase(config)} holds no user, so it is not the database Betdesk runs on. ${GIVE_THE_SETTINGS}`);
  }
}

/** Refuses, before opening it (which would create one), an embedded database that does not exist. */
export function assertEmbeddedDatabaseExists(config: Pick<Config, 'databaseUrl' | 'dataDir'>): void {
  if (config.databaseUrl || existsSync(join(config.dataDir, 'pglite', 'PG_VERSION'))) return;
  throw new BackupError(`Nothing backed up: ${describeDatabase(config)} does not exist, so it is not the database Betdesk runs on. ${GIVE_THE_SETTINGS}`);
}

export async function runBackup(
  database: Database,
  config: Config,
  trigger: 'schedule' | 'manual' | 'cli',
  options: { outDir?: string; userId?: number | null } = {},
): Promise<MadeBackup> {
  const db = database.db;
  await assertBetdeskDatabase(database, config);
  const runId = await q.startBackupRun(db, { trigger, requestedBy: options.userId ?? null });
  try {
    const made = await writeBackup(database, config, options.outDir ?? config.backup.dir);
    await q.finishBackupRun(db, runId, {
      fileName: made.info.name,
      sizeBytes: made.info.size_bytes,
      sha256: made.info.file_sha256,
      verified: made.info.verified,
    });
    if (trigger === 'schedule') applyRetention(config.backup.dir, config.backup.timezone);
    return made;
  } catch (error) {
    await q.failBackupRun(db, runId, (error as Error).message.slice(0, 500));
    throw error;
  }
}

/** The backups in BACKUP_DIR, newest first. */
export function listBackupFiles(dir: string): BackupFileInfo[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const list: BackupFileInfo[] = [];
  for (const name of names) {
    if (!FILE_PATTERN.test(name)) continue;
    try {
      const { manifest: _manifest, ...info } = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as Sidecar;
      list.push(info);
    } catch {
      // A file without its sidecar (copied in by hand): listed, not verified.
      const [, at, kind] = FILE_PATTERN.exec(name)!;
      list.push({
        name,
        created_at: `${at!.slice(0, 4)}-${at!.slice(4, 6)}-${at!.slice(6, 11)}:${at!.slice(11, 13)}:${at!.slice(13, 15)}Z`,
        size_bytes: statSync(join(dir, name)).size,
        file_sha256: sha256OfFile(join(dir, name)),
        encrypted: name.endsWith('.enc'),
        verified: false,
        database: kind as 'postgres' | 'pglite',
        schema_migration: 'unknown',
      });
    }
  }
  return list.sort((a, b) => b.created_at.localeCompare(a.created_at));
}

/** The path of a listed backup by its name, or null (never a path outside BACKUP_DIR). */
export function backupFilePath(dir: string, name: string): string | null {
  if (basename(name) !== name || !FILE_PATTERN.test(name)) return null;
  return listBackupFiles(dir).some((b) => b.name === name) ? join(dir, name) : null;
}

/**
 * Retention: the newest backup of each of the last 7 days and of each of the last 4 weeks
 * (business days and ISO weeks in `timezone`) stay; older ones are deleted with their sidecars.
 */
export function applyRetention(dir: string, timezone: string): string[] {
  const list = listBackupFiles(dir);
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const dayOf = (iso: string): string => day.format(new Date(iso));
  const weekOf = (iso: string): string => {
    const [y, m, d] = dayOf(iso).split('-').map(Number);
    const date = new Date(Date.UTC(y!, m! - 1, d!));
    const weekday = (date.getUTCDay() + 6) % 7; // Monday 0
    date.setUTCDate(date.getUTCDate() - weekday); // the Monday of its week
    return date.toISOString().slice(0, 10);
  };
  const keep = new Set<string>();
  const days = new Set<string>();
  const weeks = new Set<string>();
  for (const b of list) {
    // Newest first: the first of each day/week is the one kept.
    if (!days.has(dayOf(b.created_at)) && days.size < 7) {
      days.add(dayOf(b.created_at));
      keep.add(b.name);
    }
    if (!weeks.has(weekOf(b.created_at)) && weeks.size < 4) {
      weeks.add(weekOf(b.created_at));
      keep.add(b.name);
    }
  }
  const removed = list.filter((b) => !keep.has(b.name)).map((b) => b.name);
  for (const name of removed) {
    rmSync(join(dir, name), { force: true });
    rmSync(join(dir, `${name}.json`), { force: true });
  }
  return removed;
}

export interface RestoreReport {
  manifest: BackupManifest;
  figures: Figures;
}

/**
 * Loads a backup file into an empty target. Everything that can be checked without loading is
 * checked first: the checksum, the kind of database, the schema version and the SECRETS_KEY.
 * After loading, every row count and money total must equal the manifest's.
 */
export async function restoreBackup(
  file: string,
  options: { target: RestoreTarget; backupKey: Buffer | undefined; secretsKey: Buffer },
): Promise<RestoreReport> {
  // A first pass reads the whole file (decrypts, decompresses, checks the tag and the checksum)
  // without loading anything; the second streams the dump into the target.
  const { manifest } = await readBackup(file, options.backupKey);
  if (manifest.database !== options.target.kind) {
    throw new BackupError(
      `This backup is of ${manifest.database === 'pglite' ? 'the embedded database' : 'PostgreSQL'}; restore it with ${
        manifest.database === 'pglite' ? 'DATABASE_URL unset (DATA_DIR pointing at an empty folder)' : 'DATABASE_URL set to an empty database'
      }.`,
    );
  }
  const latest = knownMigrations().at(-1)!;
  if (manifest.schema.when > latest.when) {
    throw new BackupError(
      `The backup's schema (${manifest.schema.migration}) is newer than this version of Betdesk knows (${latest.tag}). Upgrade Betdesk first, then restore.`,
    );
  }
  const fingerprint = secretsKeyFingerprint(options.secretsKey);
  if (manifest.secrets_key_fingerprint !== fingerprint) {
    throw new BackupError(
      `The backup's encrypted fields were sealed with another SECRETS_KEY (fingerprint ${manifest.secrets_key_fingerprint}; this install's is ${fingerprint}). ` +
        'Set SECRETS_KEY (or copy local-secrets.json of the backed-up install into DATA_DIR) and run the restore again. Nothing was loaded.',
    );
  }
  await assertEmptyTarget(options.target);
  const figures = await loadDump(
    options.target,
    async (into) => {
      await readBackup(file, options.backupKey, {
        into,
        onManifest: (again) => {
          if (again.dump_sha256 !== manifest.dump_sha256) throw new BackupError('The backup file changed while it was being restored.');
        },
      });
    },
    restoreCheckSql(manifest, { createdAt: manifest.created_at, fileName: basename(file) }),
  );
  const differences = compareFigures(manifest, figures);
  if (differences.length > 0) {
    throw new BackupError(`The restored data does not match the manifest:\n  ${differences.join('\n  ')}`);
  }
  return { manifest, figures };
}

export function compareFigures(expected: Figures, actual: Figures): string[] {
  const out: string[] = [];
  for (const [table, count] of Object.entries(expected.row_counts)) {
    if (actual.row_counts[table] !== count) out.push(`${table}: ${count} rows expected, ${actual.row_counts[table] ?? 'none'} found`);
  }
  for (const [column, total] of Object.entries(expected.money_totals_cents)) {
    if (actual.money_totals_cents[column] !== total) out.push(`${column}: total ${total} expected, ${actual.money_totals_cents[column] ?? 'none'} found`);
  }
  return out;
}


/** The latest successful and the latest failed run, for the dashboard and /metrics. */
export async function backupStatus(db: Db): Promise<{ lastOkAt: Date | null; lastFailure: { at: Date; error: string } | null }> {
  const ok = await q.lastGoodBackup(db);
  const failed = await q.lastFailedBackup(db);
  const lastOkAt = ok?.at ?? null;
  const lastFailure = failed?.at && (!lastOkAt || failed.at > lastOkAt) ? { at: failed.at, error: failed.error ?? '' } : null;
  return { lastOkAt, lastFailure };
}

/** The dashboard's and the Backups screen's view of the job: an alert when it failed or is late. */
export async function health(db: Db): Promise<{
  last_ok_at: string | null;
  last_failure: { at: string; error: string } | null;
  alert: string | null;
}> {
  const { lastOkAt, lastFailure } = await backupStatus(db);
  // Never backed up: counted from the install (its first user), so a new install is not alarmed.
  const firstAt = lastOkAt ? undefined : await q.firstUserCreatedAt(db);
  const since = lastOkAt ?? (firstAt ? new Date(firstAt) : new Date());
  let alert: string | null = null;
  if (lastFailure) alert = `The last backup failed (${lastFailure.error}). Open Backups and back up now.`;
  else if (Date.now() - since.getTime() > BACKUP_MAX_AGE_HOURS * 3_600_000) {
    alert = lastOkAt
      ? `No backup has succeeded for more than ${BACKUP_MAX_AGE_HOURS} hours. Open Backups and back up now.`
      : 'No backup has been made yet. Open Backups and back up now.';
  }
  return {
    last_ok_at: lastOkAt?.toISOString() ?? null,
    last_failure: lastFailure ? { at: lastFailure.at.toISOString(), error: lastFailure.error } : null,
    alert,
  };
}
