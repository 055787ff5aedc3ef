import { sql, type SQL } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE, type Bet4meSubscription } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { clients, subscriptions } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { iso, kes, pagingSql, type Page } from '../clients/service.ts';

function toSubscription(r: Record<string, unknown>): Bet4meSubscription {
  const active = Boolean(r.active);
  const status = active ? 1 : 0;
  return {
    id: Number(r.id),
    amount: kes(r.amount_cents),
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

/** Bet4Me subscriptions (client subscriptions only); `where` filters over s and c. */
export async function findClientSubscriptions(db: Queryable, where: SQL, page: Page | null): Promise<Bet4meSubscription[]> {
  const found = await rows<Record<string, unknown>>(db, sql`
    select s.id, s.amount_cents, s.duration_days, s.created_at, s.expires_at, (s.expires_at > now() and s.reversed_at is null) as active,
           (s.reversed_at is not null) as reversed,
           s.client_id, c.name, c.phone
      from ${subscriptions} s join ${clients} c on c.id = s.client_id
     where s.client_id is not null and ${where}
     order by s.created_at desc, s.id desc ${pagingSql(page)}`);
  return found.map(toSubscription);
}

export async function countClientSubscriptions(db: Queryable, where: SQL): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`
    select count(*)::int as n from ${subscriptions} s join ${clients} c on c.id = s.client_id
     where s.client_id is not null and ${where}`);
  return Number(row?.n ?? 0);
}

/**
 * The value of the Bet4Me subscriptions sold (not the M-Pesa money received: that is the
 * dashboard's income), all time and on today's Nairobi business day, in cents. A subscription
 * reversed by unclaiming its payment was never sold.
 */
export async function clientSubscriptionIncome(db: Queryable): Promise<{ totalCents: number; todayCents: number }> {
  const [row] = await rows<{ total: string; today: string }>(db, sql`
    select coalesce(sum(amount_cents), 0) as total,
           coalesce(sum(amount_cents) filter (where created_at >= (date_trunc('day', now() at time zone ${BUSINESS_TIME_ZONE}) at time zone ${BUSINESS_TIME_ZONE})), 0) as today
      from ${subscriptions} where client_id is not null and reversed_at is null`);
  return { totalCents: Number(row?.total ?? 0), todayCents: Number(row?.today ?? 0) };
}
