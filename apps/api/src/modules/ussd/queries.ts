import { and, eq, lt, sql } from 'drizzle-orm';
import { betCategories, subscriptions, tipsSubscribers, ussdPurchases, type UssdPurchaseStatus } from '../../db/schema/index.ts';
import { rows } from '../../db/rows.ts';
import type { Queryable } from '../../db/client.ts';

export async function subscriberIdByPhone(db: Queryable, phone: string): Promise<number | null> {
  const [found] = await db.select({ id: tipsSubscribers.id }).from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
  return found?.id ?? null;
}

/** A subscriber's running subscriptions, one per category and medium with its last expiry (renewals stack). */
export async function runningSubscriptions(
  db: Queryable,
  subscriberId: number,
): Promise<{ category: string; code: string; medium: 'sms' | 'web'; expires_at: string; subscription_id: string | number }[]> {
  return rows(
    db,
    sql`select bc.name as category, bc.code, sub.medium, max(sub.expires_at) as expires_at,
               (array_agg(sub.id order by sub.expires_at desc, sub.id desc))[1] as subscription_id
          from ${subscriptions} sub
          join ${betCategories} bc on bc.id = sub.bet_category_id
         where sub.subscriber_id = ${subscriberId}
           and sub.expires_at > now()
           and sub.reversed_at is null
         group by bc.name, bc.code, sub.medium
         order by max(sub.expires_at), bc.name, sub.medium`,
  );
}

/** Records the purchase of a session; null when the session already bought (a repeated step). */
export async function insertPurchase(
  db: Queryable,
  p: { sessionId: string; phone: string; packageId: number; status: UssdPurchaseStatus; promoCode: string | null; days: number | null },
): Promise<number | null> {
  const [inserted] = await db
    .insert(ussdPurchases)
    .values(p)
    .onConflictDoNothing({ target: ussdPurchases.sessionId })
    .returning({ id: ussdPurchases.id });
  return inserted?.id ?? null;
}

/** Queued purchases older than `before` will not be pushed any more: the punter has long stopped waiting. */
export async function expireQueued(db: Queryable, before: Date): Promise<void> {
  await db
    .update(ussdPurchases)
    .set({ status: 'expired', reason: 'Waited too long for the job queue; no payment request was sent', settledAt: sql`now()` })
    .where(and(eq(ussdPurchases.status, 'queued'), lt(ussdPurchases.createdAt, before)));
}

/**
 * Takes up to `limit` queued purchases for this run (`sending`), oldest first. A run that dies
 * leaves them `sending`: never pushed twice, at worst not at all.
 */
export async function claimQueued(
  db: Queryable,
  limit: number,
): Promise<{ id: number; phone: string; packageId: number; promoCode: string | null; days: number | null }[]> {
  const claimed = await rows<{ id: string | number; phone: string; package_id: number; promo_code: string | null; days: number | null }>(
    db,
    sql`update ${ussdPurchases} set status = 'sending'
         where id in (select id from ${ussdPurchases} where status = 'queued'
                       order by created_at, id limit ${limit} for update skip locked)
        returning id, phone, package_id, promo_code, days`,
  );
  return claimed.map((c) => ({
    id: Number(c.id),
    phone: c.phone,
    packageId: Number(c.package_id),
    promoCode: c.promo_code,
    days: c.days === null ? null : Number(c.days),
  }));
}

export async function settlePurchase(
  db: Queryable,
  id: number,
  s: { status: UssdPurchaseStatus; stkRequestId?: number | null; reason?: string | null },
): Promise<void> {
  await db
    .update(ussdPurchases)
    .set({ status: s.status, stkRequestId: s.stkRequestId ?? null, reason: s.reason ?? null, settledAt: sql`now()` })
    .where(eq(ussdPurchases.id, id));
}
