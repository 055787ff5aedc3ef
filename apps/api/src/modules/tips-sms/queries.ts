import { sql, type SQL } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE, type SmsTip, type SmsTipWithDelivery } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { betCategories, smsMessages, smsTipVersions, subscriptions, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { optedOutSql } from '../sms/service.ts';
import { pausedNowSql } from '../pauses/service.ts';

/**
 * The outbox intent of an SMS tip; each row's dedupe key is `sms-tip:<version id>:<phone>`. The
 * index sms_tip_version_idx (schema/sms.ts) is partial on this intent: change both together.
 */
export const SMS_TIP_INTENT = 'tips.sms-tip';
export const smsTipDedupePrefix = (versionId: number) => `sms-tip:${versionId}`;

interface TipRecord {
  version_id: number | null;
  bet_category_id: number;
  bet_category: string;
  code: string;
  content: string;
  updated_at: Date | string | null;
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
}

/**
 * Every bet category with its current tip (the newest version) and, in the same statement, the
 * delivery counts of that version from the outbox, found by the version in the dedupe key.
 */
async function tipRecords(db: Queryable): Promise<TipRecord[]> {
  return rows<TipRecord>(
    db,
    sql`with current_versions as (
          select distinct on (bet_category_id) id, bet_category_id, content, created_at
            from ${smsTipVersions}
           order by bet_category_id, id desc
        ), delivery as (
          -- per current version, an index-only count on sms_tip_version_idx (its expression and
          -- predicate, literally): never a scan of the whole outbox
          select v.id as version_id, d.*
            from current_versions v
            cross join lateral (
              select count(*) filter (where m.status in ('queued', 'sending'))::int as queued,
                     count(*) filter (where m.status in ('sent', 'unconfirmed'))::int as sent,
                     count(*) filter (where m.status = 'delivered')::int as delivered,
                     count(*) filter (where m.status = 'failed')::int as failed
                from ${smsMessages} m
               where m.intent = ${sql.raw(`'${SMS_TIP_INTENT}'`)}
                 and split_part(m.dedupe_key, ':', 2) = v.id::text
            ) d
        )
        select v.id as version_id, bc.id as bet_category_id, bc.name as bet_category, bc.code,
               coalesce(v.content, '') as content, v.created_at as updated_at,
               coalesce(d.queued, 0) as queued, coalesce(d.sent, 0) as sent,
               coalesce(d.delivered, 0) as delivered, coalesce(d.failed, 0) as failed
          from ${betCategories} bc
          left join current_versions v on v.bet_category_id = bc.id
          left join delivery d on d.version_id = v.id
         order by bc.id`,
  );
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export async function currentTips(db: Queryable): Promise<(SmsTip & { versionId: number | null })[]> {
  return (await tipRecords(db)).map((r) => ({
    versionId: r.version_id,
    bet_category_id: r.bet_category_id,
    bet_category: r.bet_category,
    code: r.code,
    content: r.content,
    updated_at: iso(r.updated_at),
  }));
}

export async function currentTipsWithDelivery(db: Queryable): Promise<SmsTipWithDelivery[]> {
  return (await tipRecords(db)).map((r) => ({
    bet_category_id: r.bet_category_id,
    bet_category: r.bet_category,
    code: r.code,
    content: r.content,
    updated_at: iso(r.updated_at),
    delivery: { queued: r.queued, sent: r.sent, delivered: r.delivered, failed: r.failed },
  }));
}

export async function insertVersion(
  db: Queryable,
  v: { betCategoryId: number; content: string; createdBy: number | null },
): Promise<number> {
  const [row] = await db.insert(smsTipVersions).values(v).returning({ id: smsTipVersions.id });
  return row!.id;
}

/**
 * Subscribers with an SMS subscription of the category that has not expired (one row per phone).
 * Renewals stack end to end, so an unexpired subscription means the subscriber is being served,
 * unless they paused it (decision 090): no tips until the pause ends.
 */
export function activeSmsRecipients(betCategoryId: number) {
  return sql`select distinct on (s.phone) s.phone, s.id as subscriber_id
               from ${subscriptions} sub
               join ${tipsSubscribers} s on s.id = sub.subscriber_id
              where sub.bet_category_id = ${betCategoryId}
                and sub.medium = 'sms'
                and sub.expires_at > now()
                and not ${pausedNowSql(sql`s.id`, betCategoryId, 'sms')}
              order by s.phone`;
}

/** How many phones a new tip of the category goes to: its running SMS subscribers, opted-out ones left out. */
export async function countSmsRecipients(db: Queryable, betCategoryId: number): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (${activeSmsRecipients(betCategoryId)}) r
         where not ${optedOutSql(sql`r.phone`, betCategoryId)}`,
  );
  return row?.n ?? 0;
}

/** The latest version of a category's tip saved today (Africa/Nairobi); `betCategoryId` may be an SQL expression. */
function todaysVersionOf(betCategoryId: number | SQL): SQL {
  return sql`select id, content from ${smsTipVersions}
              where bet_category_id = ${betCategoryId}
                and created_at >= (date_trunc('day', now() at time zone ${BUSINESS_TIME_ZONE}) at time zone ${BUSINESS_TIME_ZONE})
              order by id desc limit 1`;
}

/** The category's tip when it was saved today (Africa/Nairobi), for a subscriber who joins later. */
export async function todaysTip(
  db: Queryable,
  betCategoryId: number,
): Promise<{ versionId: number; content: string } | null> {
  const [row] = await rows<{ id: number; content: string }>(db, todaysVersionOf(betCategoryId));
  return todaysTipOf(row);
}

/** `todaysTip` as a column of another read (json: id and content, or null), the category an SQL expression of it. */
export function todaysTipColumn(betCategoryId: SQL): SQL {
  return sql`(select json_build_object('id', t.id, 'content', t.content) from (${todaysVersionOf(betCategoryId)}) t)`;
}

/** A tip version's row as today's tip: none when its text is empty. */
export function todaysTipOf(row: { id: number | string; content: string } | null | undefined): { versionId: number; content: string } | null {
  return row && row.content !== '' ? { versionId: Number(row.id), content: row.content } : null;
}

export async function subscriberPhone(db: Queryable, subscriberId: number): Promise<string | null> {
  const [row] = await rows<{ phone: string }>(
    db,
    sql`select phone from ${tipsSubscribers} where id = ${subscriberId}`,
  );
  return row?.phone ?? null;
}

/** The categories of a subscriber's running SMS subscriptions, by code. */
export async function runningSmsCategories(db: Queryable, subscriberId: number): Promise<{ id: number; code: string }[]> {
  return rows<{ id: number; code: string }>(
    db,
    sql`select distinct bc.id, bc.code
          from ${subscriptions} sub
          join ${betCategories} bc on bc.id = sub.bet_category_id
         where sub.subscriber_id = ${subscriberId}
           and sub.medium = 'sms'
           and sub.expires_at > now()
           and sub.reversed_at is null
           and not ${pausedNowSql(sql`sub.subscriber_id`, sql`bc.id`, 'sms')}
         order by bc.code`,
  );
}
