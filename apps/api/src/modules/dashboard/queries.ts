import { sql } from 'drizzle-orm';
import { DASHBOARD_ACTIVE_CLIENTS, INCOME_CHART_DAYS, nairobiDayOf } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { summedByDay, type SummaryPrefix } from '../../db/summaries.ts';
import { bets, clients, subscriptions } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import type { ScopedWhere } from '../../db/scope.ts';

/**
 * Subscriptions read to find the dashboard's clients: the newest running ones, off
 * subscriptions_client_created_idx. A client holds a few stacked subscriptions at most, so this
 * many always name DASHBOARD_ACTIVE_CLIENTS different clients when there are that many.
 */
const NEWEST_RUNNING_READ = 500;

/**
 * The active clients with the newest subscriptions (top DASHBOARD_ACTIVE_CLIENTS) and their
 * open-bet counts; the full list is /clients/active. `scope` says whose subscriptions (s) are read:
 * a staff member's off subscriptions_owner_created_idx.
 */
export async function findActiveClientsWithOpenBets(db: Queryable, scope: ScopedWhere) {
  const found = await rows<{ id: number; name: string; phone: string; photo: string | null; open_bets: string }>(
    db,
    // The ten are chosen first; only their open bets are counted.
    sql`select t.id, t.name, t.phone, t.photo, ob.n as open_bets
          from (select c.id, c.name, c.phone, c.photo, s.latest, s.newest
                  from (select s.client_id, max(s.created_at) as latest, max(s.id) as newest
                          from (select s.client_id, s.created_at, s.id from ${subscriptions} s
                                 where s.client_id is not null and s.expires_at > now() and ${scope}
                                 order by s.created_at desc, s.id desc limit ${NEWEST_RUNNING_READ}) s
                         group by s.client_id) s
                  join ${clients} c on c.id = s.client_id and c.deleted_at is null
                 order by s.latest desc, s.newest desc
                 limit ${DASHBOARD_ACTIVE_CLIENTS}) t
          cross join lateral (select count(*) as n from ${bets} b where b.client_id = t.id and b.status = 'open') ob
         order by t.latest desc, t.newest desc`,
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
 * came in), from the day summaries: the same income as the mpesa domain's incomeTotals.
 */
export async function incomeByDay(db: Queryable, incomeKeys: readonly SummaryPrefix[]): Promise<{ day: string; cents: number }[]> {
  const today = nairobiDayOf(new Date());
  const days = Array.from({ length: INCOME_CHART_DAYS }, (_, i) =>
    nairobiDayOf(new Date(Date.parse(`${today}T12:00:00Z`) - (INCOME_CHART_DAYS - 1 - i) * 86_400_000)),
  );
  const found = await summedByDay(db, incomeKeys, { from: days[0], to: today });
  const byDay = new Map<string, number>();
  for (const r of found) byDay.set(r.day, (byDay.get(r.day) ?? 0) + r.amount_cents);
  return days.map((day) => ({ day, cents: byDay.get(day) ?? 0 }));
}
