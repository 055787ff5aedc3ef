import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Broadcast, BroadcastAudience } from '@betdesk/contract';
import { pageWithTotal, rows } from '../../db/rows.ts';
import { betCategories, broadcasts, clients, smsMessages, subscriptions, tipsSubscribers, users } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { consentedSql, erasedSql, optedOutSql, promotionSparedSql } from '../sms/service.ts';

type Audience = z.output<typeof BroadcastAudience>;

/**
 * The segment as one recipients query (a phone per row, with the person's id): the fan-out inserts
 * from it in one INSERT ... SELECT, however many people it holds.
 */
export function recipientsOf(a: Audience): { query: SQL; are: 'subscribers' | 'clients' } {
  switch (a.segment) {
    case 'category-active':
      return {
        are: 'subscribers',
        query: sql`select distinct on (s.phone) s.phone, s.id as subscriber_id
                     from ${subscriptions} sub join ${tipsSubscribers} s on s.id = sub.subscriber_id
                    where sub.bet_category_id = ${a.bet_category_id!} and sub.expires_at > now()
                    order by s.phone`,
      };
    case 'category-lapsed':
      return {
        are: 'subscribers',
        query: sql`select distinct on (s.phone) s.phone, s.id as subscriber_id
                     from ${subscriptions} sub join ${tipsSubscribers} s on s.id = sub.subscriber_id
                    where sub.bet_category_id = ${a.bet_category_id!}
                      and sub.expires_at <= now() and sub.expires_at > now() - make_interval(days => ${a.lapsed_days!})
                      and not exists (select 1 from ${subscriptions} cur
                                       where cur.subscriber_id = s.id and cur.bet_category_id = sub.bet_category_id
                                         and cur.expires_at > now())
                    order by s.phone`,
      };
    case 'clients-all':
      return {
        are: 'clients',
        query: sql`select distinct on (c.phone) c.phone, c.id as client_id
                     from ${clients} c where c.deleted_at is null order by c.phone`,
      };
    case 'clients-active':
      return {
        are: 'clients',
        query: sql`select distinct on (c.phone) c.phone, c.id as client_id
                     from ${clients} c
                    where c.deleted_at is null
                      and exists (select 1 from ${subscriptions} sub where sub.client_id = c.id and sub.expires_at > now())
                    order by c.phone`,
      };
  }
}

/**
 * How many people a recipients query holds, and how many of them are left out for opting out (Do
 * Not Disturb included: a broadcast is promotional), for a running self-exclusion (decision 059) or
 * for giving no marketing consent: the fan-out's rules. Each person is counted once, under the
 * first reason that leaves them out.
 */
export async function countAudience(
  db: Queryable,
  recipients: SQL,
): Promise<{ everyone: number; optedOut: number; selfExcluded: number; noConsent: number }> {
  const out = sql`(${optedOutSql(sql`r.phone`, null, true)} or ${erasedSql(sql`r.phone`)})`;
  const excluded = promotionSparedSql(sql`r.phone`);
  const [counted] = await rows<{ everyone: number; opted_out: number; self_excluded: number; no_consent: number }>(
    db,
    sql`select count(*)::int as everyone,
               count(*) filter (where ${out})::int as opted_out,
               count(*) filter (where not ${out} and ${excluded})::int as self_excluded,
               count(*) filter (where not ${out} and not ${excluded} and not ${consentedSql(sql`r.phone`)})::int as no_consent
          from (${recipients}) r`,
  );
  return {
    everyone: counted?.everyone ?? 0,
    optedOut: counted?.opted_out ?? 0,
    selfExcluded: counted?.self_excluded ?? 0,
    noConsent: counted?.no_consent ?? 0,
  };
}

/** Writes the broadcast row under its idempotency key; null when that key was already used. */
export async function insertBroadcastOnce(tx: Queryable, broadcast: typeof broadcasts.$inferInsert): Promise<number | null> {
  const [created] = await tx
    .insert(broadcasts)
    .values(broadcast)
    .onConflictDoNothing({ target: broadcasts.idempotencyKey })
    .returning({ id: broadcasts.id });
  return created?.id ?? null;
}

export async function broadcastIdByKey(tx: Queryable, idempotencyKey: string): Promise<number> {
  const [existing] = await rows<{ id: number }>(tx, sql`select id from ${broadcasts} where idempotency_key = ${idempotencyKey}`);
  return Number(existing!.id);
}

export async function setBroadcastRecipients(tx: Queryable, broadcastId: number, recipients: number): Promise<void> {
  await tx.update(broadcasts).set({ recipients }).where(sql`${broadcasts.id} = ${broadcastId}`);
}

interface BroadcastRow {
  id: number;
  segment: string;
  bet_category: string | null;
  lapsed_days: number | null;
  body: string;
  recipients: number;
  created_by: string | null;
  created_at: string;
  language: 'en' | 'sw' | null;
  approval_reference: string | null;
  queued: number;
  held: number;
  sent: number;
  delivered: number;
  failed: number;
  total_records?: string;
}

/** Broadcasts newest first with their counts: each count reads that broadcast's rows through sms_broadcast_idx. */
async function broadcastsWhere(db: Queryable, where: SQL, page: { limit: number; offset: number }) {
  const { found, total } = await pageWithTotal<BroadcastRow>(
    db,
    {
      query: sql`select b.id, b.segment, bc.name as bet_category, b.lapsed_days, b.body, b.recipients, u.name as created_by,
                        b.created_at, b.language, b.approval_reference, d.*, count(*) over() as total_records
                   from ${broadcasts} b
                   left join ${betCategories} bc on bc.id = b.bet_category_id
                   left join ${users} u on u.id = b.created_by
                   cross join lateral (
                     select count(*) filter (where m.status in ('queued', 'sending') and m.next_attempt_at <= now())::int as queued,
                            count(*) filter (where m.status = 'queued' and m.next_attempt_at > now())::int as held,
                            count(*) filter (where m.status in ('sent', 'unconfirmed'))::int as sent,
                            count(*) filter (where m.status = 'delivered')::int as delivered,
                            count(*) filter (where m.status = 'failed')::int as failed
                       from ${smsMessages} m where m.broadcast_id = b.id
                   ) d
                  where ${where}
                  order by b.id desc
                  limit ${page.limit} offset ${page.offset}`,
      offset: page.offset,
    },
    sql`select count(*) as total from ${broadcasts} b where ${where}`,
  );
  return {
    total,
    broadcasts: found.map(
      (r): Broadcast => ({
        id: Number(r.id),
        segment: r.segment,
        bet_category: r.bet_category,
        lapsed_days: r.lapsed_days,
        message: r.body,
        recipients: Number(r.recipients),
        created_by: r.created_by,
        created_on: new Date(r.created_at).toISOString(),
        language: r.language,
        approval_reference: r.approval_reference,
        counts: { queued: r.queued, held: r.held, sent: r.sent, delivered: r.delivered, failed: r.failed },
      }),
    ),
  };
}

/** One page of every broadcast, newest first, and how many there are. */
export function findBroadcasts(db: Queryable, page: { limit: number; offset: number }) {
  return broadcastsWhere(db, sql`true`, page);
}

export async function broadcastById(db: Queryable, broadcastId: number): Promise<Broadcast | undefined> {
  const { broadcasts: found } = await broadcastsWhere(db, sql`b.id = ${broadcastId}`, { limit: 1, offset: 0 });
  return found[0];
}
