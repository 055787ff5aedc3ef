import { sql } from 'drizzle-orm';
import { rows } from '../../db/rows.ts';
import type { Queryable } from '../../db/client.ts';

/**
 * The figures GET /metrics reads at each scrape that no module's service gives: small counts and
 * last-run times across the modules' tables, each off an index or a small table.
 */

/** Messages in the SMS outbox of each of these statuses (0 for a status none has). */
export function outboxCounts(db: Queryable, statuses: readonly string[]) {
  return rows<{ status: string; n: number }>(
    db,
    sql`select s.status, (select count(*)::int from sms_messages m where m.status = s.status) as n
          from unnest(${`{${statuses.join(',')}}`}::text[]) as s(status)`,
  );
}

/** When the nightly money check and the last good M-Pesa pull ran. */
export async function reconciliationLastRuns(db: Queryable) {
  const [r] = await rows<{ check: Date | null; pull: Date | null }>(
    db,
    sql`select (select max(ran_at) from money_checks) as check,
               (select max(finished_at) from mpesa_pull_runs where status = 'ok') as pull`,
  );
  return r;
}

/** Refunds approved but not yet done or failed, by status. */
export function unresolvedRefundCounts(db: Queryable) {
  return rows<{ status: string; n: string }>(
    db,
    sql`select status, count(*) as n from refunds where status in ('sending', 'unknown', 'held') group by status`,
  );
}

/** When the first user (the install's first admin) was created. */
export async function installedAt(db: Queryable): Promise<Date | string | null | undefined> {
  const [r] = await rows<{ at: Date | string | null }>(db, sql`select min(created_at) as at from users`);
  return r?.at;
}
