import type { SQL } from 'drizzle-orm';
import { betCategoryLabel, centsToKes, TIPS_MEDIA_LABELS, type SubscriberSubscription, type TipsSubscription } from '@betdesk/contract';
import { countCapOf, dayRangeOf, type ListCount } from '../../db/list.ts';
import { summed } from '../../db/summaries.ts';
import type { Queryable } from '../../db/client.ts';
import {
  countSubscriptions,
  pageSubscriptions,
  subscriberSubscriptions,
  subscriptionsOrder,
  subscriptionsWhere,
  type ActiveQuery,
  type AllQuery,
  type SubscriptionRecord,
} from './queries.ts';

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

/** One page of a list, as the screen shows it. */
async function subscriptionsPage(db: Queryable, where: SQL, order: SQL, page: { page: number; perPage: number }): Promise<TipsSubscription[]> {
  return (await pageSubscriptions(db, where, order, page)).map(toSubscription);
}

/** Every tips subscription, newest first; counted from the day summaries unless searched. */
export async function allSubscriptionsPage(db: Queryable, query: AllQuery) {
  const where = subscriptionsWhere(query, false);
  const counted: Promise<ListCount> = query.search?.trim()
    ? countSubscriptions(db, where, countCapOf(query))
    : Promise.all([
        summed(db, 'subscription:subscriber:', dayRangeOf(query)),
        summed(db, 'subscription_reversed:subscriber', dayRangeOf(query)),
      ]).then(([sold, reversed]) => ({ total_records: sold.n + reversed.n }));
  const [list, count] = await Promise.all([subscriptionsPage(db, where, subscriptionsOrder('tipsSubscriptions', query), query), counted]);
  return { ...count, subscriptions: list };
}

/** Tips subscriptions running now, the soonest to expire first. */
export async function activeSubscriptionsPage(db: Queryable, query: ActiveQuery) {
  const where = subscriptionsWhere(query, true);
  const [list, count] = await Promise.all([
    subscriptionsPage(db, where, subscriptionsOrder('activeTipsSubscriptions', query), query),
    countSubscriptions(db, where, countCapOf(query)),
  ]);
  return { ...count, subscriptions: list };
}

/** One subscriber's subscriptions, newest first (the subscriber view). */
export async function subscriptionsOfSubscriber(db: Queryable, subscriberId: number): Promise<SubscriberSubscription[]> {
  const found = await subscriberSubscriptions(db, subscriberId);
  return found.map((r) => {
    const { subscriber_id: _s, name: _n, phone: _p, ...rest } = toSubscription(r);
    return rest;
  });
}
