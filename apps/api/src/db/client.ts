import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { FairPGlite } from './fair-pglite.ts';
import { lockEmbeddedDatabase } from './pglite-lock.ts';

/**
 * Without drizzle's relational queries (`db.query.*`): nothing used them, and each transaction built
 * one for every table of the schema (decision 047's profile of a C2B purchase).
 */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<PgQueryResultHKT>;
/** Anything queries can run on: the database or an open transaction. */
export type Queryable = Db | Tx;

export interface SqlResult {
  rows: Record<string, unknown>[];
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Raw SQL for pg-boss and a few bulk statements; multi-statement text when there are no values. */
  executeSql(text: string, values?: unknown[]): Promise<SqlResult>;
  /** The connection string when on PostgreSQL (pg-boss opens its own pool). */
  url: string | undefined;
  /**
   * PostgreSQL itself, for what needs a session of its own (LISTEN, the migrations' advisory lock,
   * pg_dump): DATABASE_DIRECT_URL when a pooler in transaction mode stands at `url` (decision 072).
   */
  directUrl: string | undefined;
  /** The embedded database itself (backups dump it with PGlite's pg_dump); undefined on PostgreSQL. */
  pglite: PGlite | undefined;
  migrate(): Promise<void>;
  /**
   * The rows of one query, `batchRows` at a time, read as the consumer asks for them: a server-side
   * cursor on PostgreSQL (memory stays flat however many rows), offset batches on the embedded
   * database (whose lists are demo-sized). The query must order its rows completely.
   */
  streamRows(query: SQL, batchRows: number): AsyncGenerator<Record<string, unknown>[]>;
  /**
   * LISTEN on a channel: `onPayload` gets each NOTIFY's payload once its transaction commits, from
   * any process on this database. Answers the function that stops listening.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const dialect = new PgDialect();

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

export interface DatabaseOptions {
  /** postgres:// URL; without it the embedded PGlite database is used. */
  url?: string | undefined;
  /** PGlite data directory; undefined keeps the embedded database in memory (tests). */
  dataDir?: string | undefined;
  /** Connections kept to PostgreSQL (DATABASE_POOL_SIZE, default 10). */
  poolSize?: number | undefined;
  /** PostgreSQL itself when `url` is a pooler (DATABASE_DIRECT_URL); `url` when absent. */
  directUrl?: string | undefined;
  /** false: `withPreparedStatements` prepares nothing by name (a pooler that cannot keep them). */
  preparedStatements?: boolean | undefined;
  /**
   * An embedded database that starts as this dump of a data directory (PGlite's `dumpDataDir`): the
   * tests start each file from one database migrated for the whole run.
   */
  startFrom?: Blob | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? openPostgres(options.url, {
        poolSize: options.poolSize ?? 10,
        directUrl: options.directUrl ?? options.url,
        preparedStatements: options.preparedStatements ?? true,
      })
    : openPglite(options.dataDir, options.startFrom);
}

/** The extensions the migrations create (pg_trgm: name searches; btree_gin: an owner inside a trigram index). */
export const PGLITE_EXTENSIONS = { pg_trgm, btree_gin };

async function openPglite(dataDir: string | undefined, startFrom?: Blob): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const release = dataDir ? lockEmbeddedDatabase(dataDir) : () => {};
  let client: PGlite;
  try {
    client = await FairPGlite.open(dataDir ?? 'memory://', { extensions: PGLITE_EXTENSIONS, ...(startFrom ? { loadDataDir: startFrom } : {}) });
  } catch (error) {
    release();
    throw error;
  }
  const db = drizzlePglite(client) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    url: undefined,
    directUrl: undefined,
    pglite: client,
    async executeSql(text, values) {
      if (values && values.length > 0) {
        const result = await client.query<Record<string, unknown>>(text, values);
        return { rows: result.rows };
      }
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
    async migrate() {
      await migratePglite(drizzlePglite(client), { migrationsFolder });
    },
    async *streamRows(query, batchRows) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      for (let offset = 0; ; offset += batchRows) {
        const batch = await client.query<Record<string, unknown>>(
          `select * from (${text}) as streamed limit ${batchRows} offset ${offset}`,
          params,
        );
        if (batch.rows.length > 0) yield batch.rows;
        if (batch.rows.length < batchRows) return;
      }
    },
    async listen(channel, onPayload) {
      // One embedded connection: it hears its own NOTIFYs, delivered after commit like PostgreSQL's.
      const stop = await client.listen(channel, onPayload);
      return async () => {
        if (!client.closed) await stop();
      };
    },
    async close() {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

/** Set while `withPreparedStatements` runs: its statements are prepared by name on PostgreSQL. */
const preparing = new AsyncLocalStorage<true>();

/**
 * Runs `work` with its parameterized statements prepared by name on PostgreSQL (a no-op on the
 * embedded database): each text is parsed and planned once per connection, and after five runs
 * PostgreSQL keeps one generic plan when it costs no more than the plans made for each run's
 * values. For a hot path of fixed statements whose values do not change the plan (the C2B
 * confirmation's look-ups by key and its inserts): planning was a third of the database's work
 * there (decision 047). Not for lists and searches, where the values (a staff member, a search
 * term) decide the plan.
 */
export function withPreparedStatements<T>(work: () => Promise<T>): Promise<T> {
  return preparing.run(true, work);
}

/** Prepared statements a connection keeps at most; a text past that runs unnamed (texts vary only by a path's branches). */
const PREPARED_PER_CONNECTION = 200;
/** A statement's name: its text's digest, so the same text has the same name on every connection. */
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `b_${createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size < 4 * PREPARED_PER_CONNECTION) statementNames.set(text, name);
  }
  return name;
}

/** A pooled connection that names the statements run under `withPreparedStatements`. */
class PreparingClient extends pg.Client {
  #prepared = new Set<string>();

  // pg's query has many overloads; only a config object with a text and values is named.
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    if (preparing.getStore() && typeof config === 'object' && config !== null && !('submit' in config)) {
      const query = config as pg.QueryConfig;
      if (typeof query.text === 'string' && !query.name && Array.isArray(values) && values.length > 0) {
        const name = statementName(query.text);
        if (this.#prepared.has(name) || this.#prepared.size < PREPARED_PER_CONNECTION) {
          this.#prepared.add(name);
          config = { ...query, name };
        }
      }
    }
    return (super.query as (...args: unknown[]) => never)(config, values, callback);
  }
}

/** The advisory lock key every process takes while it applies migrations ("betd" in ASCII). */
const MIGRATION_LOCK = 0x62657464;

async function openPostgres(url: string, options: { poolSize: number; directUrl: string; preparedStatements: boolean }): Promise<Database> {
  const { poolSize, directUrl } = options;
  const pool = new pg.Pool({ connectionString: url, max: poolSize, ...(options.preparedStatements ? { Client: PreparingClient } : {}) });
  pool.on('error', () => {
    /* an idle client died; the pool replaces it on next use */
  });
  const db = drizzlePg(pool) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    url,
    directUrl,
    pglite: undefined,
    async executeSql(text, values) {
      const result = await pool.query(text, values);
      const last = Array.isArray(result) ? result.at(-1) : result;
      return { rows: last?.rows ?? [] };
    },
    async migrate() {
      // Several processes may start at once (N API processes and a worker): one migrates at a time,
      // the others wait on the lock and then find nothing left to apply. The lock is a session's, so
      // this connection goes to PostgreSQL itself, never through a pooler in transaction mode.
      const connection = new pg.Client({ connectionString: directUrl });
      await connection.connect();
      try {
        await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg(connection), { migrationsFolder });
      } finally {
        await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        await connection.end().catch(() => {});
      }
    },
    async *streamRows(query, batchRows) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      const connection = await pool.connect();
      const cursor = connection.query(new Cursor<Record<string, unknown>>(text, params));
      try {
        for (;;) {
          const batch = await cursor.read(batchRows);
          if (batch.length > 0) yield batch;
          if (batch.length < batchRows) return;
        }
      } finally {
        await cursor.close().catch(() => {});
        connection.release();
      }
    },
    listen: (channel, onPayload) => listenPostgres(directUrl, channel, onPayload),
    async close() {
      await pool.end();
    },
  };
}

const RELISTEN_DELAY_MS = 1000;

/**
 * A dedicated connection that LISTENs (a pooled one would be handed to other queries). When it
 * drops it reconnects after a second; notifications sent while it was down are lost, which the
 * live screens make up for by refetching when their stream reconnects.
 */
async function listenPostgres(url: string, channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | null = null;
  const relisten = (): void => {
    if (!stopped) setTimeout(() => void connect().catch(relisten), RELISTEN_DELAY_MS).unref();
  };
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    client.on('error', () => {
      if (current === client) current = null;
      void client.end().catch(() => {});
      relisten();
    });
    await client.connect();
    await client.query(`listen "${channel.replace(/"/g, '""')}"`);
    if (stopped) {
      await client.end();
      return;
    }
    current = client;
  };
  await connect();
  return async () => {
    stopped = true;
    const client = current;
    current = null;
    await client?.end().catch(() => {});
  };
}

/** Errors that mean "the server is not taking connections yet", worth waiting out at boot. */
const NOT_YET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', '57P03']);

export class DatabaseUnreachableError extends Error {}

/** Besides NOT_YET: the server went away mid-connection (shut down, crashed, the connection lost). */
const GONE = new Set(['57P01', '57P02', '08000', '08001', '08003', '08004', '08006']);

/**
 * Whether an error of a request means the database does not answer (refused, unreachable, shut
 * down, a connection lost or not had in time), as opposed to a statement that failed: the request
 * then answers 503, as health and ready do, not 500. Looks through drizzle's wrapping (`cause`)
 * and node's AggregateError (one error per address tried).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (NOT_YET.has(code) || GONE.has(code))) return true;
  if (typeof message === 'string' && /^(Connection terminated|timeout exceeded when trying to connect)/.test(message)) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/**
 * At boot, before migrating: waits until PostgreSQL takes a connection. While it refuses (started
 * before the database, or the database restarting) one line says which host and that it retries;
 * the line is said again only when the reason changes. A refusal that waiting cannot mend (wrong
 * password, no such database) ends it with one line, never a stack trace.
 */
export async function waitForDatabase(
  url: string,
  options: { say: (line: string) => void; retryMs?: number; signal?: AbortSignal },
): Promise<void> {
  const { hostname, port } = new URL(url);
  const where = `${hostname}:${port || '5432'}`;
  let said = '';
  for (;;) {
    options.signal?.throwIfAborted();
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      const { code, message } = error as { code?: string; message: string };
      if (!code || !NOT_YET.has(code)) throw new DatabaseUnreachableError(`The database at ${where} refused Betdesk: ${message}`);
      const line = `The database at ${where} does not take connections (${code}); retrying every ${(options.retryMs ?? 2000) / 1000} s`;
      if (line !== said) options.say(line);
      said = line;
    }
    await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 2000));
  }
}
