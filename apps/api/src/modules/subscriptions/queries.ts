import { sql, type SQL } from 'drizzle-orm';
import { centsToKes, nairobiDayOf, type Bet4meSubscription } from '@betdesk/contract';
import { iso, rows } from '../../db/rows.ts';
import { exactCount, pageRows, type Page } from '../../db/list.ts';
import { summed, type DayRange } from '../../db/summaries.ts';
import { clients, subscriptions } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

function toSubscription(r: Record<string, unknown>): Bet4meSubscription {
  const active = Boolean(r.active);
  const status = active ? 1 : 0;
  return {
    id: Number(r.id),
    amount: centsToKes(r.amount_cents),
    duration: Number(r.duration_days),
    done_on: iso(r.created_at),
    expiry_date: iso(r.expires_at),
    status,
    status_id: status,
    status_name: r.reversed ? 'Reversed' : active ? 'Active' : 'Expired',
    client_id: Number(r.client_id),
    name: String(r.name),
    phone: String(r.phone),
  };
}

const subscriptionColumns = sql`
  s.id, s.amount_cents, s.duration_days, s.created_at, s.expires_at, (s.expires_at > now() and s.reversed_at is null) as active,
  (s.reversed_at is not null) as reversed, s.client_id, c.name, c.phone`;

/**
 * One page of Bet4Me subscriptions (client subscriptions only); `where` and `order` read s, so the
 * page is picked off subscriptions_client_*_idx before the clients are joined.
 */
export async function findClientSubscriptions(db: Queryable, where: SQL, page: Page | null, order: SQL = newestSubscriptionsFirst): Promise<Bet4meSubscription[]> {
  const found = await rows<Record<string, unknown>>(db, sql`
    select ${subscriptionColumns}
      from (${pageRows(subscriptions, 's', sql`s.client_id is not null and ${where}`, order, page)}) s
      join ${clients} c on c.id = s.client_id
     order by ${order}`);
  return found.map(toSubscription);
}

export const newestSubscriptionsFirst = sql`s.created_at desc, s.id desc`;

/** Every Bet4Me subscription of `where` in `order`, for the CSV export's cursor. */
export function clientSubscriptionsExportQuery(where: SQL, order: SQL): SQL {
  return sql`select ${subscriptionColumns} from ${subscriptions} s join ${clients} c on c.id = s.client_id
     where s.client_id is not null and ${where} order by ${order}`;
}

export { toSubscription };

export function countClientSubscriptions(db: Queryable, where: SQL): Promise<number> {
  return exactCount(db, sql`from ${subscriptions} s where s.client_id is not null and ${where}`);
}

/**
 * The value of the Bet4Me subscriptions sold (not the M-Pesa money received: that is the
 * dashboard's income) over the days, and on today's Nairobi business day, in cents, with how many
 * subscriptions the days hold (reversed ones included: the list shows them). A subscription
 * reversed by unclaiming its payment was never sold. From the day summaries.
 */
export async function clientSubscriptionIncome(db: Queryable, range: DayRange = {}) {
  const today = nairobiDayOf(new Date());
  const [sold, reversed, soldToday] = await Promise.all([
    summed(db, 'subscription:client:', range),
    summed(db, 'subscription_reversed:client', range),
    summed(db, 'subscription:client:', { from: today, to: today }),
  ]);
  return { totalCents: sold.amount_cents, todayCents: soldToday.amount_cents, subscriptions: sold.n + reversed.n };
}

