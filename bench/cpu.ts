/**
 * CPU time, read from Linux's /proc, for the ingestion scenario (decision 044): a rate moves with whatever
 * else the machine does, the CPU a confirmation costs much less. Elsewhere than Linux both answer null
 * and the figures leave it out.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type pg from 'pg';

let ticksPerSecond: number | undefined;
function tickMs(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return 1000 / ticksPerSecond;
}

/** The fields of /proc/PID/stat after the command name (field 3 onwards: [0] the state, [1] the parent). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** User and system CPU of these processes so far, in ms (fields 14 and 15 of /proc/PID/stat). */
function processesCpuMs(pids: number[]): number | null {
  try {
    let ticks = 0;
    for (const pid of pids) {
      const fields = statFields(pid);
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks * tickMs();
  } catch {
    return null;
  }
}

/** The processes whose parent is `parent` (from /proc). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(Number(entry))[1]) === parent) children.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return children;
}

/**
 * PostgreSQL's CPU so far, in ms: its postmaster's own, its live children's (the backends, the
 * writers), and its ended children's, which the postmaster's cutime and cstime (fields 16 and 17) hold
 * once it has reaped them. Read again while a child ends during the reading (it would be counted in
 * neither place, or in both).
 */
function databaseCpuMs(postmaster: number): number | null {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const children = childrenOf(postmaster);
      const own = statFields(postmaster);
      let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
      for (const child of children) {
        const fields = statFields(child);
        ticks += Number(fields[11]) + Number(fields[12]);
      }
      const after = childrenOf(postmaster);
      if (after.length === children.length && after.every((pid, i) => pid === children[i])) return ticks * tickMs();
    } catch {
      // A child ended while it was read: read again.
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  return null;
}

/**
 * The postmaster's process id when the database runs on this machine (the parent of this
 * connection's backend, if it is a PostgreSQL process we can read), else null: the database's own
 * CPU is then left out of the figures.
 */
export async function localPostmaster(sql: pg.Client): Promise<number | null> {
  try {
    const { rows } = await sql.query<{ pid: number }>('select pg_backend_pid() as pid');
    const parent = Number(statFields(rows[0]!.pid)[1]);
    return readFileSync(`/proc/${parent}/cmdline`, 'utf8').includes('postgres') ? parent : null;
  } catch {
    return null;
  }
}

/** CPU the whole machine has been busy so far, all cores together, in ms (/proc/stat less idle and iowait). */
function machineBusyCpuMs(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [, ...values] = line.trim().split(/\s+/);
    const n = values.slice(0, 8).map(Number);
    const busy = n.reduce((a, b) => a + b, 0) - n[3]! - n[4]!;
    return busy * tickMs();
  } catch {
    return null;
  }
}

/** CPU per unit of work (a request, a purchase), in ms; null where it cannot be read. */
export interface CpuEach {
  /** The whole machine's, all cores together. */
  machineCpuMsEach: number | null;
  /** PostgreSQL's processes' alone, when the database runs on this machine. */
  databaseCpuMsEach: number | null;
}

/**
 * What a stretch of work costs: make the meter before it (with the processes to watch, and the
 * database's postmaster when it is local) and `stop()` it after.
 */
export function cpuMeter(pids: number[] = [], postmaster: number | null = null) {
  const process0 = processesCpuMs(pids);
  const machine0 = machineBusyCpuMs();
  const database0 = postmaster === null ? null : databaseCpuMs(postmaster);
  return {
    stop(): { processMs: number | null; machineMs: number | null; databaseMs: number | null } {
      const process1 = processesCpuMs(pids);
      const machine1 = machineBusyCpuMs();
      const database1 = postmaster === null ? null : databaseCpuMs(postmaster);
      return {
        processMs: process0 === null || process1 === null || pids.length === 0 ? null : process1 - process0,
        machineMs: machine0 === null || machine1 === null ? null : machine1 - machine0,
        databaseMs: database0 === null || database1 === null ? null : database1 - database0,
      };
    },
  };
}

/** Sets the cores a process and every one of its threads may run on (util-linux's taskset). */
function pin(pid: number, cores: string): void {
  execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cores, String(pid)], { stdio: 'ignore' });
}

/**
 * Gives the local database half of the machine's cores and this process (and what it starts after:
 * the API processes, pgbench) the other half, as when PostgreSQL has a host of its own, until the
 * answer's `restore()`. New backends inherit the postmaster's cores. Changing PostgreSQL's processes'
 * cores needs root (or the postgres user); Linux only.
 */
export function splitCores(postmaster: number): { database: string; application: string; restore(): void } {
  const cores = availableParallelism();
  if (cores < 2) throw new Error('--split-cores needs at least two cores');
  const half = Math.floor(cores / 2);
  const database = half === 1 ? '0' : `0-${half - 1}`;
  const application = half === cores - 1 ? String(half) : `${half}-${cores - 1}`;
  const all = `0-${cores - 1}`;
  const databaseProcesses = () => [postmaster, ...childrenOf(postmaster)];
  const pinAll = (pids: number[], to: string) => {
    for (const pid of pids) {
      try {
        pin(pid, to);
      } catch (error) {
        // A backend may end while the list is pinned; the postmaster and this process may not fail.
        if (pid === postmaster || pid === process.pid) throw error;
      }
    }
  };
  pinAll(databaseProcesses(), database);
  pinAll([process.pid], application);
  return {
    database,
    application,
    restore() {
      pinAll(databaseProcesses(), all);
      pinAll([process.pid], all);
    },
  };
}
