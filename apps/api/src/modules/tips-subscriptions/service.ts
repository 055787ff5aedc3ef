import { sql, type SQL } from 'drizzle-orm';
import {
  betCategoryLabel,
  centsToKes,
  TIPS_MEDIA_LABELS,
  type SortOf,
  type SubscriberSubscription,
  type TipsSubscription,
} from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { cappedCount, dayRangeOf, inDays, nameOrPhoneContains, orderSql, pageOf, pageRows, type ListCount, type ListRequest } from '../../db/list.ts';
import { summed } from '../../db/summaries.ts';
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
    amount: centsToKes(r.amount_cents),
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

type AllQuery = ListRequest<SortOf<'tipsSubscriptions'>>;
type ActiveQuery = ListRequest<SortOf<'activeTipsSubscriptions'>>;

const sorts: Record<SortOf<'tipsSubscriptions'>, SQL> = { done_on: sql`sub.created_at`, expiry_date: sql`sub.expires_at` };
const running = sql`sub.expires_at > now() and sub.reversed_at is null`;

function listWhere(f: AllQuery | ActiveQuery, runningOnly: boolean): SQL {
  const parts = [sql`sub.subscriber_id is not null`, inDays(sql`sub.created_at`, dayRangeOf(f))];
  if (runningOnly) parts.push(running);
  const search = f.search?.trim();
  if (search) {
    parts.push(sql`sub.subscriber_id in (select s.id from ${tipsSubscribers} s where ${nameOrPhoneContains(search, sql`s.name`, sql`s.phone`)})`);
  }
  return sql.join(parts, sql` and `);
}

/** One page picked off subscriptions_subscriber_*_idx, then joined to its subscribers and categories. */
async function subscriptionsPage(db: Queryable, where: SQL, order: SQL, page: { page: number; perPage: number }): Promise<TipsSubscription[]> {
  const found = await rows<SubscriptionRecord>(
    db,
    sql`${subscriptionSelect}
          from (${pageRows(subscriptions, 'sub', where, order, pageOf(page))}) sub
          join ${tipsSubscribers} s on s.id = sub.subscriber_id
          left join ${betCategories} bc on bc.id = sub.bet_category_id
         order by ${order}`,
  );
  return found.map(toSubscription);
}

/** Every tips subscription, newest first; counted from the day summaries unless searched. */
export async function allSubscriptionsPage(db: Queryable, query: AllQuery) {
  const where = listWhere(query, false);
  const counted: Promise<ListCount> = query.search?.trim()
    ? cappedCount(db, sql`from ${subscriptions} sub where ${where}`)
    : Promise.all([
        summed(db, 'subscription:subscriber:', dayRangeOf(query)),
        summed(db, 'subscription_reversed:subscriber', dayRangeOf(query)),
      ]).then(([sold, reversed]) => ({ total_records: sold.n + reversed.n }));
  const [list, count] = await Promise.all([subscriptionsPage(db, where, orderSql('tipsSubscriptions', sorts, sql`sub.id`, query), query), counted]);
  return { ...count, subscriptions: list };
}

/** Tips subscriptions running now, the soonest to expire first. */
export async function activeSubscriptionsPage(db: Queryable, query: ActiveQuery) {
  const where = listWhere(query, true);
  const [list, count] = await Promise.all([
    subscriptionsPage(db, where, orderSql('activeTipsSubscriptions', sorts, sql`sub.id`, query), query),
    cappedCount(db, sql`from ${subscriptions} sub where ${where}`),
  ]);
  return { ...count, subscriptions: list };
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
