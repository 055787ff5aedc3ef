import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { PassThrough, Readable, type Writable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';
import pg from 'pg';
import { PGLITE_EXTENSIONS, type Database } from '../../db/client.ts';
import { FairPGlite } from '../../db/fair-pglite.ts';
import { BACKUP_FORMAT, BackupError, collectText, type BackupManifest } from './archive.ts';
import { sqlChunks } from './sql-chunks.ts';

/** The size of a piece of a dump the embedded database loads at once (sql-chunks.ts). */
const RESTORE_PIECE_CHARS = 256 * 1024;

type Row = Record<string, unknown>;
type Query = (text: string) => Promise<Row[]>;

export interface Figures {
  row_counts: Record<string, number>;
  money_totals_cents: Record<string, string>;
}

const journalFile = fileURLToPath(new URL('../../../drizzle/meta/_journal.json', import.meta.url));

/** The migrations this code knows, oldest first. */
export function knownMigrations(): { tag: string; when: number }[] {
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string; when: number }[] };
  return journal.entries.map((e) => ({ tag: e.tag, when: e.when }));
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Rows of every table and the sum of every money column, read in one statement (one snapshot).
 * A restore compares these with the manifest's.
 */
export async function readFigures(query: Query): Promise<Figures> {
  const tables = (
    await query(
      `select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    )
  ).map((r) => String(r.table_name));
  const money = (
    await query(
      `select table_name, column_name from information_schema.columns
        where table_schema = 'public' and column_name like '%\\_cents' and data_type in ('bigint', 'integer')
        order by table_name, column_name`,
    )
  ).map((r) => ({ table: String(r.table_name), column: String(r.column_name) }));
  const parts = [
    ...tables.map((t, i) => `(select count(*) from public.${quote(t)})::text as c${i}`),
    ...money.map((m, i) => `(select coalesce(sum(${quote(m.column)}), 0) from public.${quote(m.table)})::text as m${i}`),
  ];
  const figures: Figures = { row_counts: {}, money_totals_cents: {} };
  if (parts.length === 0) return figures;
  const [row] = await query(`select ${parts.join(', ')}`);
  tables.forEach((t, i) => (figures.row_counts[t] = Number(row![`c${i}`])));
  money.forEach((m, i) => (figures.money_totals_cents[`${m.table}.${m.column}`] = String(row![`m${i}`])));
  return figures;
}

/** The last migration applied, by the timestamp drizzle records (the tag comes from the journal). */
async function readSchemaVersion(query: Query): Promise<BackupManifest['schema']> {
  const [row] = await query('select max(created_at)::text as last from drizzle.__drizzle_migrations');
  const when = Number(row?.last ?? 0);
  const tag = knownMigrations().find((m) => m.when === when)?.tag ?? `unknown-${when}`;
  return { migration: tag, when };
}

/** Takes a dump as a stream and answers its checksum and size (compressDump writes it to disk). */
export type DumpConsumer = (dump: Readable) => Promise<{ sha256: string; bytes: number }>;

/**
 * A consistent dump of the whole database with its figures, on either kind of database, handed to
 * `consume` as a stream; answers the manifest.
 */
export async function dumpDatabase(database: Database, secretsFingerprint: string, consume: DumpConsumer): Promise<BackupManifest> {
  const taken = database.pglite ? await dumpPglite(database.pglite, consume) : await dumpPostgres(database.directUrl!, consume);
  return {
    format: BACKUP_FORMAT,
    created_at: new Date().toISOString(),
    database: database.kind,
    schema: taken.schema,
    secrets_key_fingerprint: secretsFingerprint,
    ...taken.figures,
    dump_sha256: taken.dump.sha256,
    dump_bytes: taken.dump.bytes,
  };
}

interface Taken {
  figures: Figures;
  schema: BackupManifest['schema'];
  dump: { sha256: string; bytes: number };
}

/**
 * PGlite's pg_dump runs synchronously against the one embedded connection. It is run inside a
 * transaction callback so no other query of the app can start meanwhile (they wait for the
 * transaction lock): the figures are read, the transaction is ended, the dump runs, and an empty
 * transaction is opened again for the callback to commit. Its dump comes back as one in-memory
 * file (the embedded database lives in this process anyway); from there it streams, after the
 * database is released.
 */
async function dumpPglite(client: PGlite, consume: DumpConsumer): Promise<Taken> {
  const { figures, schema, file } = await client.transaction(async (tx) => {
    const query: Query = async (text) => (await tx.query<Row>(text)).rows;
    const figures = await readFigures(query);
    const schema = await readSchemaVersion(query);
    await tx.exec('rollback');
    try {
      const exclusive = {
        query: (text: string) => tx.query(text),
        exec: (text: string) => tx.exec(text),
        execProtocolRawStream: client.execProtocolRawStream.bind(client),
      } as unknown as PGlite;
      const file = await pgDump({ pg: exclusive, args: ['--no-owner', '--no-privileges'] });
      return { figures, schema, file };
    } finally {
      await tx.exec('begin');
    }
  });
  const dump = await consume(Readable.fromWeb(file.stream() as NodeReadableStream<Uint8Array>));
  return { figures, schema, dump };
}

/** Connection settings for pg_dump/psql: the password goes in the environment, not on the command line. */
function pgConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function notInstalled(command: string, error: NodeJS.ErrnoException): Error {
  return error.code === 'ENOENT'
    ? new BackupError(`${command} is not installed: install Debian's postgresql-client (apt-get install postgresql-client).`)
    : error;
}

/**
 * Runs a PostgreSQL client tool whose stdin or stdout is a stream `work` handles; resolves when
 * both the work and the tool succeeded. If the work fails first, the tool is killed (psql then
 * never reaches the end of its input, so its single transaction is rolled back, not committed).
 */
function runStreaming(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  work: (child: ChildProcessByStdio<Writable, Readable, Readable>) => Promise<void>,
): Promise<void> {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolvePromise, reject) => {
    child.on('error', (error: NodeJS.ErrnoException) => reject(notInstalled(command, error)));
    child.on('close', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new BackupError(`${command} failed (${signal ?? `exit ${code}`}): ${err.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
  const done = work(child).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return Promise.all([done, exited]).then(
    () => undefined,
    // The tool's own failure says more than the broken pipe it caused.
    async (error: unknown) => {
      const toolError = await exited.then(() => null, (e: unknown) => e);
      throw toolError instanceof BackupError && !(error instanceof BackupError) ? toolError : error;
    },
  );
}

/**
 * pg_dump of the snapshot a repeatable-read transaction exported, so the figures read in that
 * transaction describe exactly the rows dumped.
 */
async function dumpPostgres(url: string, consume: DumpConsumer): Promise<Taken> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const snapshot = String((await client.query<{ s: string }>('select pg_export_snapshot() as s')).rows[0]!.s);
    const query: Query = async (text) => (await client.query<Row>(text)).rows;
    const figures = await readFigures(query);
    const schema = await readSchemaVersion(query);
    const { dbname, env } = pgConnection(url);
    let dump: Taken['dump'] | undefined;
    await runStreaming('pg_dump', ['--no-owner', '--no-privileges', `--snapshot=${snapshot}`, `--dbname=${dbname}`], env, async (child) => {
      child.stdin.end();
      dump = await consume(child.stdout);
    });
    await client.query('commit');
    return { figures, schema, dump: dump! };
  } finally {
    await client.end();
  }
}

export type RestoreTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

/** Refuses a target that holds anything: a restore never merges into or overwrites data. */
export async function assertEmptyTarget(target: RestoreTarget): Promise<void> {
  if (target.kind === 'pglite') {
    if (existsSync(target.dataDir) && readdirSync(target.dataDir).length > 0) {
      throw new BackupError(
        `The target data directory ${target.dataDir} is not empty. Restore into an empty DATA_DIR (move the old pglite folder aside first).`,
      );
    }
    return;
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from information_schema.tables
        where table_schema not in ('pg_catalog', 'information_schema')`,
    );
    if (rows[0]!.n > 0) {
      throw new BackupError(
        `The target database is not empty (${rows[0]!.n} tables). Restore into a new, empty database (createdb) and point DATABASE_URL at it.`,
      );
    }
  } finally {
    await client.end();
  }
}

/**
 * SQL run after the dump inside its transaction: it fails the transaction (so nothing of the
 * backup is kept) unless every table's rows and every money column's total are the manifest's.
 * Then the run that was writing this backup, unfinished in its own dump, is recorded as the
 * success it was (its file is the one being restored).
 */
export function restoreCheckSql(expected: Figures, backup: { createdAt: string; fileName: string }): string {
  const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const checks = [
    ...Object.entries(expected.row_counts).map(
      ([table, count]) =>
        `select count(*) into actual from public.${quote(table)};
  if actual <> ${Number(count)} then problems := problems || E'\\n  ' || ${literal(`${table}: ${count} rows expected, `)} || actual || ' found'; end if;`,
    ),
    ...Object.entries(expected.money_totals_cents).map(([key, total]) => {
      const [table, column] = key.split('.') as [string, string];
      return `select coalesce(sum(${quote(column)}), 0) into actual from public.${quote(table)};
  if actual <> ${literal(total)}::numeric then problems := problems || E'\\n  ' || ${literal(`${key}: total ${total} expected, `)} || actual || ' found'; end if;`;
    }),
  ];
  return `
do $restore_check$
declare
  actual numeric;
  problems text := '';
begin
  ${checks.join('\n  ')}
  if problems <> '' then
    raise exception 'The restored data does not match the manifest:%', problems;
  end if;
  if to_regclass('public.backup_runs') is not null then
    update public.backup_runs
       set finished_at = ${literal(backup.createdAt)}::timestamptz, ok = true, file_name = ${literal(backup.fileName)}
     where id = (select max(id) from public.backup_runs where finished_at is null and started_at <= ${literal(backup.createdAt)}::timestamptz);
  end if;
end
$restore_check$;
`;
}

/**
 * Loads a dump into the (empty) target in one transaction, with `finish` (restoreCheckSql) run
 * in it before the commit, and reads the figures back. `write` streams the dump into the writable
 * it is given and rejects if the dump turns out damaged. PostgreSQL takes it through psql's stdin
 * as it comes; the embedded database takes it whole, then loads it a piece of statements at a time.
 * Any failure leaves the target as it was (empty) and says so.
 */
export async function loadDump(target: RestoreTarget, write: (into: Writable) => Promise<void>, finish = ''): Promise<Figures> {
  if (target.kind === 'postgres') {
    const { dbname, env } = pgConnection(target.url);
    try {
      await runStreaming('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', `--dbname=${dbname}`, '-f', '-'], env, async (child) => {
        child.stdout.resume();
        child.stdin.on('error', () => {});
        const dump = new PassThrough();
        dump.pipe(child.stdin, { end: false });
        const piped = new Promise<void>((resolvePiped) => dump.on('end', resolvePiped));
        await write(dump);
        await piped;
        child.stdin.end(`\n${finish}\n`);
      });
    } catch (error) {
      throw new BackupError(`The restore failed and nothing was kept (the load ran as one transaction): ${(error as Error).message}`);
    }
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      return await readFigures(async (text) => (await client.query<Row>(text)).rows);
    } finally {
      await client.end();
    }
  }
  const dump = collectText();
  await write(dump);
  const created = !existsSync(target.dataDir);
  mkdirSync(target.dataDir, { recursive: true });
  const client = await FairPGlite.open(target.dataDir, { extensions: PGLITE_EXTENSIONS });
  try {
    // One transaction, loaded a piece at a time: between pieces the process's event loop has its turn
    // (FairPGlite), where one message of the whole dump held it for seconds (decision 102).
    await client.exec('begin');
    for (const piece of sqlChunks(dump.text(), RESTORE_PIECE_CHARS)) await client.exec(piece);
    if (finish) await client.exec(finish);
    await client.exec('commit');
    await client.exec('set search_path to default');
    return await readFigures(async (text) => (await client.query<Row>(text)).rows);
  } catch (error) {
    await client.close().catch(() => {});
    rmSync(target.dataDir, { recursive: true, force: true });
    if (!created) mkdirSync(target.dataDir, { recursive: true });
    throw new BackupError(`The restore failed and nothing was kept (${target.dataDir} is empty again): ${(error as Error).message}`);
  } finally {
    if (!client.closed) await client.close();
  }
}
