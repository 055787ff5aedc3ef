import { sql, type SQL } from 'drizzle-orm';
import { rows } from '../../db/rows.ts';
import { betCategories, pricePackages, subscriptionPauses, subscriptions, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

export type PauseRecord = typeof subscriptionPauses.$inferSelect;
export type NewPause = typeof subscriptionPauses.$inferInsert;

/** The pause, once per subscription: null when the subscription was paused already. */
export async function insertPause(tx: Queryable, p: NewPause): Promise<PauseRecord | null> {
  const [row] = await tx.insert(subscriptionPauses).values(p).onConflictDoNothing({ target: subscriptionPauses.subscriptionId }).returning();
  return row ?? null;
}

export async function pauseOfSubscription(db: Queryable, subscriptionId: number): Promise<PauseRecord | null> {
  const [row] = await db.select().from(subscriptionPauses).where(sql`${subscriptionPauses.subscriptionId} = ${subscriptionId}`);
  return row ?? null;
}

/** The subscriber of a phone, if any. */
export async function subscriberIdOfPhone(db: Queryable, phone: string): Promise<number | null> {
  const [row] = await rows<{ id: number }>(db, sql`select id from ${tipsSubscribers} where phone = ${phone}`);
  return row ? Number(row.id) : null;
}

/** A subscriber's running tips subscriptions a pause could be asked for, the soonest to end first, with their category and their pause (at most one). */
export async function runningSubscriptions(db: Queryable, subscriberId: number) {
  return rows<{
    id: number;
    duration_days: number;
    category: string | null;
    code: string | null;
    medium: 'sms' | 'web' | null;
    expires_at: Date | string;
    paused: boolean;
    paused_from: Date | string | null;
    paused_until: Date | string | null;
  }>(
    db,
    sql`select sub.id, sub.duration_days, bc.name as category, bc.code, sub.medium, sub.expires_at,
               p.id is not null as paused, p.starts_at as paused_from, p.ends_at as paused_until
          from ${subscriptions} sub
          left join ${betCategories} bc on bc.id = sub.bet_category_id
          left join ${subscriptionPauses} p on p.subscription_id = sub.id
         where sub.subscriber_id = ${subscriberId} and sub.starts_at <= now() and sub.expires_at > now() and sub.reversed_at is null
         order by sub.expires_at, sub.id`,
  );
}

/** The name a pause's SMS gives the subscription: its package's, else its category's. */
export async function packageNameOf(db: Queryable, packageId: number | null, betCategoryId: number | null): Promise<string> {
  const [row] = await rows<{ name: string | null }>(
    db,
    sql`select coalesce((select name from ${pricePackages} where id = ${packageId}), (select name from ${betCategories} where id = ${betCategoryId})) as name`,
  );
  return row?.name ?? '';
}

/**
 * SQL true when the subscriber (an SQL expression) has a pause running now for this category and
 * medium: no tips of it go to them until it ends.
 */
export function pausedNow(subscriberId: SQL, betCategoryId: number | SQL, medium: 'sms' | 'web'): SQL {
  return sql`exists (select 1 from ${subscriptionPauses} p
                      where p.subscriber_id = ${subscriberId} and p.bet_category_id = ${betCategoryId} and p.medium = ${medium}
                        and p.starts_at <= now() and p.ends_at > now())`;
}

/** The first sale of the same category and medium made at or after the pause ended (the sale after the pause); null: none yet. */
export async function saleAfterPause(db: Queryable, pauseId: number): Promise<{ subscriptionId: number; createdAt: Date } | null> {
  const [row] = await rows<{ id: number; created_at: Date | string }>(
    db,
    sql`select sub.id, sub.created_at
          from ${subscriptionPauses} p
          join ${subscriptions} sub on sub.subscriber_id = p.subscriber_id and sub.bet_category_id is not distinct from p.bet_category_id
                                   and sub.medium is not distinct from p.medium and sub.created_at >= p.ends_at and sub.reversed_at is null
                                   and sub.amount_cents > 0 and sub.source not in ('manual', 'trial')
         where p.id = ${pauseId}
         order by sub.created_at, sub.id limit 1`,
  );
  return row ? { subscriptionId: Number(row.id), createdAt: new Date(row.created_at) } : null;
}
