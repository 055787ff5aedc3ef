import { sql, type SQL } from 'drizzle-orm';
import type { SortOf } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { cappedCount, dayRangeOf, inDays, nameOrPhoneContains, orderSql, pageOf, pageRows, type ListCount, type ListRequest } from '../../db/list.ts';
import { betCategories, subscriptions, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/** A tips subscription as the lists read it: its subscriber, what was bought, and whether it runs. */
export interface SubscriptionRecord {
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

export type AllQuery = ListRequest<SortOf<'tipsSubscriptions'>>;
export type ActiveQuery = ListRequest<SortOf<'activeTipsSubscriptions'>>;

const subscriptionSelect = sql`
  select sub.id, sub.subscriber_id, s.name, s.phone, sub.created_at as done_on,
         sub.duration_days as duration, sub.expires_at as expiry_date,
         bc.name as category_name, bc.code as category_code, sub.medium, sub.amount_cents,
         (sub.expires_at > now() and sub.reversed_at is null) as active, sub.reversed_at is not null as reversed`;

const subscriptionFrom = sql`
  from ${subscriptions} sub
  join ${tipsSubscribers} s on s.id = sub.subscriber_id
  left join ${betCategories} bc on bc.id = sub.bet_category_id`;

const sorts: Record<SortOf<'tipsSubscriptions'>, SQL> = { done_on: sql`sub.created_at`, expiry_date: sql`sub.expires_at` };
const running = sql`sub.expires_at > now() and sub.reversed_at is null`;

/** Which subscribers' subscriptions a list shows: bought in its days, running now if asked, searched by name or phone. */
export function subscriptionsWhere(f: AllQuery | ActiveQuery, runningOnly: boolean): SQL {
  const parts = [sql`sub.subscriber_id is not null`, inDays(sql`sub.created_at`, dayRangeOf(f))];
  if (runningOnly) parts.push(running);
  const search = f.search?.trim();
  if (search) {
    parts.push(sql`sub.subscriber_id in (select s.id from ${tipsSubscribers} s where ${nameOrPhoneContains(search, sql`s.name`, sql`s.phone`)})`);
  }
  return sql.join(parts, sql` and `);
}

/** The order a list asked for, ties broken by the subscription's id. */
export function subscriptionsOrder(list: 'tipsSubscriptions' | 'activeTipsSubscriptions', query: AllQuery | ActiveQuery): SQL {
  return orderSql(list, sorts, sql`sub.id`, query);
}

/** One page picked off subscriptions_subscriber_*_idx, then joined to its subscribers and categories. */
export function pageSubscriptions(db: Queryable, where: SQL, order: SQL, page: { page: number; perPage: number }): Promise<SubscriptionRecord[]> {
  return rows<SubscriptionRecord>(
    db,
    sql`${subscriptionSelect}
          from (${pageRows(subscriptions, 'sub', where, order, pageOf(page))}) sub
          join ${tipsSubscribers} s on s.id = sub.subscriber_id
          left join ${betCategories} bc on bc.id = sub.bet_category_id
         order by ${order}`,
  );
}

/** How many subscribers' subscriptions a list's filter finds, up to `cap` (countCapOf). */
export function countSubscriptions(db: Queryable, where: SQL, cap: number): Promise<ListCount> {
  return cappedCount(db, sql`from ${subscriptions} sub where ${where}`, cap);
}

/** One subscriber's subscriptions, newest first. */
export function subscriberSubscriptions(db: Queryable, subscriberId: number): Promise<SubscriptionRecord[]> {
  return rows<SubscriptionRecord>(
    db,
    sql`${subscriptionSelect} ${subscriptionFrom}
        where sub.subscriber_id = ${subscriberId}
        order by sub.created_at desc, sub.id desc`,
  );
}
