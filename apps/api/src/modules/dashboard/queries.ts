import { sql, type SQL } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE, INCOME_CHART_DAYS } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { bets, clients, mpesaPayments, subscriptions } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/** Active clients with their open-bet counts, newest subscription first; `scope` filters c.id. */
export async function findActiveClientsWithOpenBets(db: Queryable, scope: SQL) {
  const found = await rows<{ id: number; name: string; phone: string; photo: string | null; open_bets: number; latest: string }>(
    db,
    sql`select c.id, c.name, c.phone, c.photo, coalesce(ob.n, 0)::int as open_bets, s.latest
          from ${clients} c
          join (select client_id, max(created_at) as latest from ${subscriptions}
                 where client_id is not null and expires_at > now() group by client_id) s on s.client_id = c.id
          left join (select client_id, count(*) as n from ${bets} where status = 'open' group by client_id) ob on ob.client_id = c.id
         where c.deleted_at is null and ${scope}
         order by s.latest desc, c.id desc`,
  );
  return found.map((r) => ({
    client_id: Number(r.id),
    name: r.name,
    phone: r.phone,
    photo: r.photo,
    total_open_bets: Number(r.open_bets),
  }));
}

/**
 * M-Pesa income per Nairobi day over the chart's window, every day present (zero when nothing
 * came in). Same definition of income as the mpesa domain's incomeTotals: every payment stored
 * except rejected payloads.
 */
export async function incomeByDay(db: Queryable): Promise<{ day: string; cents: number }[]> {
  const found = await rows<{ day: string; cents: string }>(db, sql`
    with days as (
      select generate_series(
               (now() at time zone ${BUSINESS_TIME_ZONE})::date - ${INCOME_CHART_DAYS - 1}::int,
               (now() at time zone ${BUSINESS_TIME_ZONE})::date,
               interval '1 day')::date as day)
    select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(sum(p.amount_cents), 0) as cents
      from days d
      left join ${mpesaPayments} p
        on p.status <> 'rejected' and (p.received_at at time zone ${BUSINESS_TIME_ZONE})::date = d.day
     group by d.day order by d.day`);
  return found.map((r) => ({ day: r.day, cents: Number(r.cents) }));
}
