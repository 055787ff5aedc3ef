import { sql, type SQL } from 'drizzle-orm';
import type { RetentionSplit } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { mpesaPayments, paymentRecoveries, pricePackages, stkRequests, subscriptions, type StkOrigin } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/** M-Pesa result codes worth one more STK push: the phone did not answer (1037), another session was open (1001). */
export const RETRY_CODES = ['1037', '1001'] as const;
/** Result codes worth one reminder: too little money (1), cancelled by the payer (1032). */
export const REMIND_CODES = ['1', '1032'] as const;

export type FailureClass = 'retry' | 'remind' | 'never';

/** Every other code (2001 wrong PIN, 1019 expired, ...) is recorded only. */
export function classOf(resultCode: string | null): FailureClass {
  if (resultCode === null) return 'never';
  if ((RETRY_CODES as readonly string[]).includes(resultCode)) return 'retry';
  if ((REMIND_CODES as readonly string[]).includes(resultCode)) return 'remind';
  return 'never';
}

export interface FailedRequest {
  id: number;
  subscriber_id: number;
  package_id: number;
  result_code: string;
  requested_at: Date;
  settled_at: Date;
}

/**
 * Failed tips package requests of the last two days with a recoverable code and no follow-up yet,
 * that are not themselves a retry. Read through stk_requests_status_idx (status, requested_at).
 */
export async function unfollowedFailures(db: Queryable, since: Date): Promise<FailedRequest[]> {
  const found = await rows<{ id: string | number; subscriber_id: number; package_id: number; result_code: string; requested_at: string | Date; settled_at: string | Date | null }>(
    db,
    sql`select r.id, r.subscriber_id, r.package_id, r.result_code, r.requested_at, r.settled_at
          from ${stkRequests} r
         where r.status in ('failed', 'cancelled') and r.requested_at >= ${since.toISOString()}
           and r.purpose = 'package' and r.subscriber_id is not null and r.package_id is not null
           and r.result_code in (${sql.join([...RETRY_CODES, ...REMIND_CODES].map((c) => sql`${c}`), sql`, `)})
           and not exists (select 1 from ${paymentRecoveries} p where p.stk_request_id = r.id)
           and not exists (select 1 from ${paymentRecoveries} p where p.retry_stk_request_id = r.id)`,
  );
  return found.map((r) => ({
    id: Number(r.id),
    subscriber_id: Number(r.subscriber_id),
    package_id: Number(r.package_id),
    result_code: r.result_code,
    requested_at: new Date(r.requested_at),
    settled_at: new Date(r.settled_at ?? r.requested_at),
  }));
}

/** Takes one due follow-up for this run: a conditional update, so two workers never both act on it. */
export async function claimDue(db: Queryable, now: Date) {
  const found = await rows<{ id: string | number; kind: 'retry' | 'remind'; subscriber_id: number; package_id: number; failed_request_at: string | Date; stk_request_id: string | number }>(
    db,
    sql`update ${paymentRecoveries} set status = 'done', done_at = ${now.toISOString()}
         where id = (select id from ${paymentRecoveries} where status = 'pending' and due_at <= ${now.toISOString()}
                      order by due_at, id limit 1 for update skip locked)
           and status = 'pending'
     returning id, kind, subscriber_id, package_id, failed_request_at, stk_request_id`,
  );
  const r = found[0];
  return r
    ? { id: Number(r.id), kind: r.kind, subscriberId: Number(r.subscriber_id), packageId: Number(r.package_id), failedRequestAt: new Date(r.failed_request_at), stkRequestId: Number(r.stk_request_id) }
    : null;
}

/** A payment from the subscriber that arrived after the failed request (any route: paybill, STK, portal, USSD). */
export async function paidSince(db: Queryable, subscriberId: number, since: Date): Promise<boolean> {
  const found = await rows<{ one: number }>(
    db,
    sql`select 1 as one from ${mpesaPayments}
         where subscriber_id = ${subscriberId} and status = 'claimed' and paid_at > ${since.toISOString()} limit 1`,
  );
  return found.length > 0;
}

/** A running subscription of the package's category and medium. */
export async function coveredNow(db: Queryable, subscriberId: number, packageId: number, now: Date): Promise<boolean> {
  const found = await rows<{ one: number }>(
    db,
    sql`select 1 as one from ${subscriptions} s join ${pricePackages} p on p.id = ${packageId}
         where s.subscriber_id = ${subscriberId} and s.bet_category_id = p.bet_category_id and s.medium = p.medium
           and s.reversed_at is null and s.expires_at > ${now.toISOString()} limit 1`,
  );
  return found.length > 0;
}

export async function settle(db: Queryable, id: number, set: { status: 'cancelled' | 'skipped' | 'done'; note?: string; retryStkRequestId?: number }) {
  await db.execute(
    sql`update ${paymentRecoveries} set status = ${set.status}, note = ${set.note ?? null},
               retry_stk_request_id = coalesce(${set.retryStkRequestId ?? null}::bigint, retry_stk_request_id)
         where id = ${id}`,
  );
}

export async function reminderFacts(db: Queryable, stkRequestId: number) {
  const found = await rows<{ phone: string; amount_cents: string | number; account_reference: string; name: string; origin: StkOrigin | null }>(
    db,
    sql`select r.phone, r.amount_cents, r.account_reference, p.name, r.origin
          from ${stkRequests} r join ${pricePackages} p on p.id = r.package_id where r.id = ${stkRequestId}`,
  );
  const r = found[0];
  return r
    ? { phone: r.phone, amountCents: Number(r.amount_cents), accountReference: r.account_reference, packageName: r.name, origin: r.origin }
    : null;
}

/**
 * The key of a recovery figure's row in a split, from its payment request `r` and the requested
 * package `pp`: the package's category or medium; the channel of the subscriber's first purchase
 * (kept on their summarised covers) or, without one, where this request was asked.
 */
function splitKey(by: RetentionSplit | undefined): SQL {
  if (by === 'category') return sql`coalesce(pp.bet_category_id::text, 'none')`;
  if (by === 'medium') return sql`coalesce(pp.medium, 'none')`;
  if (by === 'channel') {
    return sql`coalesce((select c.channel from retention_covers c where c.subscriber_id = r.subscriber_id limit 1),
                        case when r.origin in ('portal', 'ussd', 'sms') then r.origin else 'stk' end)`;
  }
  return sql`'all'`;
}

/**
 * The recovery figures of a range of instants, per key of the split (one key, 'all', without): failed
 * requests by result code (from stk_requests, by when they were sent), retries and reminders done,
 * and the amount recovered: claimed payments of the subscriber received within 3 days after a retry
 * or reminder, each payment counted once, under its first such follow-up (by when Betdesk received
 * it: M-Pesa's TransTime has whole seconds and can read before the retry left).
 */
export async function recoveryFigures(db: Queryable, start: Date, end: Date, by?: RetentionSplit) {
  const key = splitKey(by);
  const [failed, done, recovered] = await Promise.all([
    rows<{ key: string; result_code: string | null; n: string | number }>(
      db,
      sql`select ${key} as key, r.result_code, count(*) as n
            from ${stkRequests} r left join ${pricePackages} pp on pp.id = r.package_id
           where r.status in ('failed', 'cancelled') and r.requested_at >= ${start.toISOString()} and r.requested_at < ${end.toISOString()}
           group by 1, 2`,
    ),
    rows<{ key: string; kind: string; n: string | number }>(
      db,
      sql`select ${key} as key, p.kind, count(*) as n
            from ${paymentRecoveries} p
            join ${stkRequests} r on r.id = p.stk_request_id
            left join ${pricePackages} pp on pp.id = p.package_id
           where p.done_at >= ${start.toISOString()} and p.done_at < ${end.toISOString()} and p.status = 'done'
           group by 1, 2`,
    ),
    rows<{ key: string; cents: string | number | null; n: string | number }>(
      db,
      sql`select ${key} as key, sum(m.amount_cents) as cents, count(*) as n
            from ${mpesaPayments} m
            join lateral (
                   select p.stk_request_id, p.package_id from ${paymentRecoveries} p
                    where p.status = 'done' and p.done_at >= ${start.toISOString()} and p.done_at < ${end.toISOString()}
                      and p.subscriber_id = m.subscriber_id
                      and m.received_at >= p.done_at and m.received_at < p.done_at + interval '3 days'
                    order by p.done_at, p.id limit 1) first_follow_up on true
            join ${stkRequests} r on r.id = first_follow_up.stk_request_id
            left join ${pricePackages} pp on pp.id = first_follow_up.package_id
           where m.status = 'claimed' and m.subscriber_id is not null
           group by 1`,
    ),
  ]);
  return {
    failed: failed.map((r) => ({ key: r.key, resultCode: r.result_code, n: Number(r.n) })),
    done: done.map((r) => ({ key: r.key, kind: r.kind, n: Number(r.n) })),
    recovered: recovered.map((r) => ({ key: r.key, cents: Number(r.cents ?? 0), payments: Number(r.n) })),
  };
}

/** Writes the follow-ups of failures not yet followed up (a failure already followed up is left as it is); how many were new. */
export async function insertFollowUps(db: Queryable, followUps: (typeof paymentRecoveries.$inferInsert)[]): Promise<number> {
  const inserted = await db.insert(paymentRecoveries).values(followUps).onConflictDoNothing().returning({ id: paymentRecoveries.id });
  return inserted.length;
}
