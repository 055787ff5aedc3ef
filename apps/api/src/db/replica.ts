import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database } from './client.ts';

/**
 * Reading work on a streaming replica (decision 073), after GitLab's database load balancing: reads
 * go to the replica; a session that has just written reads from the primary until the replica has
 * replayed past that write's LSN; a replica lagging more than the limit, or not answering, is
 * skipped and the primary serves. Nothing fails because of the replica.
 */

/** What the replica says of itself: the WAL it has replayed and how far behind it is. */
export interface ReplicaState {
  /** pg_last_wal_replay_lsn(), as PostgreSQL writes it (`16/B374D848`). */
  replayLsn: string;
  lagSeconds: number;
}

export type ReadChoice =
  | { use: 'replica' }
  | { use: 'primary'; because: 'no replica' | 'unreachable' | 'lagging' | 'fresh write' };

/** An LSN (`X/Y`, two hex halves) as one number, to compare. */
export function lsnValue(lsn: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn.trim());
  if (!match) throw new Error(`not an LSN: ${lsn}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/**
 * The one decision: the replica, unless there is none, it does not answer (`null`), it lags more
 * than `maxLagSeconds`, or the session's last write (`sessionLsn`) is past what it has replayed.
 */
export function chooseReads(state: ReplicaState | null | undefined, sessionLsn: string | null | undefined, maxLagSeconds: number): ReadChoice {
  if (state === undefined) return { use: 'primary', because: 'no replica' };
  if (state === null) return { use: 'primary', because: 'unreachable' };
  if (state.lagSeconds > maxLagSeconds) return { use: 'primary', because: 'lagging' };
  if (sessionLsn && lsnValue(state.replayLsn) < lsnValue(sessionLsn)) return { use: 'primary', because: 'fresh write' };
  return { use: 'replica' };
}

/**
 * What the replica has replayed and its lag: none when everything received is replayed (an idle
 * primary sends no transactions, and `now() - pg_last_xact_replay_timestamp()` would grow), else
 * the age of the last transaction replayed. No rows' worth of answer (not in recovery) reads as null.
 */
export const REPLICA_STATE_SQL = `select pg_last_wal_replay_lsn()::text as replay_lsn,
  case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
       else coalesce(extract(epoch from now() - pg_last_xact_replay_timestamp()), 0) end::float8 as lag_seconds`;

/** How long one process keeps the replica's state before asking again. */
export const REPLICA_STATE_CACHE_MS = 1000;
/** A replica that takes longer than this to answer the state query is taken as unreachable. */
const PROBE_TIMEOUT_MS = 2000;

export interface ReadRoutingOptions {
  maxLagSeconds: number;
  /** Asks the replica its state; null when it does not answer. Tests give a fake. */
  probe?: () => Promise<ReplicaState | null>;
  cacheMs?: number;
  now?: () => number;
}

/** One process's view of its replica: the chooser, with the replica's state cached briefly. */
export class ReadRouting {
  readonly primary: Database;
  readonly replica: Database;
  readonly maxLagSeconds: number;
  readonly #probe: () => Promise<ReplicaState | null>;
  readonly #cacheMs: number;
  readonly #now: () => number;
  #cached: { at: number; state: Promise<ReplicaState | null> } | null = null;

  constructor(primary: Database, replica: Database, options: ReadRoutingOptions) {
    this.primary = primary;
    this.replica = replica;
    this.maxLagSeconds = options.maxLagSeconds;
    this.#probe = options.probe ?? (() => probeReplica(replica));
    this.#cacheMs = options.cacheMs ?? REPLICA_STATE_CACHE_MS;
    this.#now = options.now ?? Date.now;
  }

  /** The replica's state, asked at most once per `cacheMs` by this process. */
  state(): Promise<ReplicaState | null> {
    const at = this.#now();
    if (!this.#cached || at - this.#cached.at >= this.#cacheMs) {
      this.#cached = { at, state: this.#probe().catch(() => null) };
    }
    return this.#cached.state;
  }

  /** Where a session whose last write was at `sessionLsn` reads, and why. */
  async choose(sessionLsn: string | null | undefined): Promise<{ database: Database; choice: ReadChoice }> {
    const choice = chooseReads(await this.state(), sessionLsn, this.maxLagSeconds);
    return { database: choice.use === 'replica' ? this.replica : this.primary, choice };
  }

  /** The primary's WAL position now: a write that has committed is at or before it. */
  async primaryLsn(): Promise<string> {
    const { rows } = await this.primary.executeSql('select pg_current_wal_lsn()::text as lsn');
    return String(rows[0]!.lsn);
  }

  async close(): Promise<void> {
    await this.replica.close();
  }
}

async function probeReplica(replica: Database): Promise<ReplicaState | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), PROBE_TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([
      replica.executeSql(REPLICA_STATE_SQL).then(({ rows }) => {
        const row = rows[0];
        if (!row || row.replay_lsn === null || row.replay_lsn === undefined) return null;
        return { replayLsn: String(row.replay_lsn), lagSeconds: Number(row.lag_seconds) };
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The database a request's exports stream from, set by the CSV route for the request's work. */
const exportScope = new AsyncLocalStorage<Database>();

/** Runs `work` with its exports' rows streamed from `database` (the replica, when chosen). */
export function streamingFrom<T>(database: Database, work: () => Promise<T>): Promise<T> {
  return exportScope.run(database, work);
}

/** Where an export's rows stream from: the request's chosen database, else `database`. */
export function streamingDatabase(database: Database): Database {
  return exportScope.getStore() ?? database;
}
