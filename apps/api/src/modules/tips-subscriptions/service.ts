import { sql, type SQL } from 'drizzle-orm';
import { betCategoryLabel, TIPS_MEDIA_LABELS, type SubscriberSubscription, type TipsSubscription } from '@betdesk/contract';
import { pageWithTotal, rows } from '../../db/rows.ts';
import { betCategories, subscriptions, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

interface SubscriptionRecord {
  id: number;
  subscriber_id: number;
  name: string;
  phone: string;
  done_on: Date | string;
  duration: number;
  expiry_date: Date | string;
  category_name: string | null;
  category_code: string | null;
  medium: 'sms' | 'web' | null;
  amount_cents: number | string;
  active: boolean;
  reversed: boolean;
  total_records?: number;
}

/** What was bought, as the Bets column reads: "Daily 2 Odds (D2) by SMS". */
function betsText(r: SubscriptionRecord): string {
  const category = r.category_name && r.category_code ? betCategoryLabel({ name: r.category_name, code: r.category_code }) : '';
  return r.medium ? `${category} by ${TIPS_MEDIA_LABELS[r.medium]}`.trim() : category;
}

function toSubscription(r: SubscriptionRecord): TipsSubscription {
  return {
    id: Number(r.id),
    subscriber_id: r.subscriber_id,
    name: r.name,
    phone: r.phone,
    done_on: new Date(r.done_on).toISOString(),
    duration: r.duration,
    expiry_date: new Date(r.expiry_date).toISOString(),
    bets: betsText(r),
    amount: Number(r.amount_cents) / 100,
    status: r.active ? 1 : 0,
    status_id: r.active ? 1 : 0,
    status_name: r.reversed ? 'Reversed' : r.active ? 'Active' : 'Expired',
  };
}

const subscriptionSelect = sql`
  select sub.id, sub.subscriber_id, s.name, s.phone, sub.created_at as done_on,
         sub.duration_days as duration, sub.expires_at as expiry_date,
         bc.name as category_name, bc.code as category_code, sub.medium, sub.amount_cents,
         (sub.expires_at > now() and sub.reversed_at is null) as active, sub.reversed_at is not null as reversed`;

const subscriptionFrom = sql`
  from ${subscriptions} sub
  join ${tipsSubscribers} s on s.id = sub.subscriber_id
  left join ${betCategories} bc on bc.id = sub.bet_category_id`;

async function pageOf(
  db: Queryable,
  where: SQL,
  orderBy: SQL,
  page: { page: number; perPage: number },
): Promise<{ subscriptions: TipsSubscription[]; total_records: number }> {
  const offset = (page.page - 1) * page.perPage;
  const { found, total } = await pageWithTotal<SubscriptionRecord>(
    db,
    {
      query: sql`${subscriptionSelect}, count(*) over ()::int as total_records
        ${subscriptionFrom}
        where ${where}
        order by ${orderBy}
        limit ${page.perPage} offset ${offset}`,
      offset,
    },
    sql`select count(*)::int as total ${subscriptionFrom} where ${where}`,
  );
  return { subscriptions: found.map(toSubscription), total_records: total };
}

/** Every tips subscription, newest first. */
export function allSubscriptionsPage(db: Queryable, page: { page: number; perPage: number }) {
  return pageOf(db, sql`sub.subscriber_id is not null`, sql`sub.created_at desc, sub.id desc`, page);
}

/** Tips subscriptions running now, the soonest to expire first. */
export function activeSubscriptionsPage(db: Queryable, page: { page: number; perPage: number }) {
  return pageOf(
    db,
    sql`sub.subscriber_id is not null and sub.expires_at > now() and sub.reversed_at is null`,
    sql`sub.expires_at asc, sub.id asc`,
    page,
  );
}

/** One subscriber's subscriptions, newest first (the subscriber view). */
export async function subscriptionsOfSubscriber(db: Queryable, subscriberId: number): Promise<SubscriberSubscription[]> {
  const found = await rows<SubscriptionRecord>(
    db,
    sql`${subscriptionSelect} ${subscriptionFrom}
        where sub.subscriber_id = ${subscriberId}
        order by sub.created_at desc, sub.id desc`,
  );
  return found.map((r) => {
    const { subscriber_id: _s, name: _n, phone: _p, ...rest } = toSubscription(r);
    return rest;
  });
}
