import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Queryable } from './client.ts';
import { rows } from './rows.ts';

/**
 * Leases for jobs that must run in one process at a time (decision 064). pg-boss's cron hands a job
 * to one worker, but a run longer than the cron's period meets the next one started elsewhere, and
 * every process booting on a database with work left starts it again. A lease is a row: taken when
 * free, lapsed or already this process's; renewed by the holder between steps; given back at the
 * end. A holder that dies keeps it only until `until`, so the work is never stuck.
 */

/** This process's name as a lease holder: host, pid and a random part (pids repeat across restarts). */
export const THIS_PROCESS = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** Takes or renews the lease for `seconds` from now; false when another live holder has it. */
export async function takeLease(db: Queryable, name: string, seconds: number, holder = THIS_PROCESS): Promise<boolean> {
  const taken = await rows<{ name: string }>(
    db,
    sql`insert into job_leases (name, holder, until) values (${name}, ${holder}, now() + make_interval(secs => ${seconds}))
        on conflict (name) do update set holder = excluded.holder, until = excluded.until
        where job_leases.until < now() or job_leases.holder = excluded.holder
        returning name`,
  );
  return taken.length === 1;
}

/** Gives the lease back (only the holder's own). */
export async function releaseLease(db: Queryable, name: string, holder = THIS_PROCESS): Promise<void> {
  await db.execute(sql`delete from job_leases where name = ${name} and holder = ${holder}`);
}
