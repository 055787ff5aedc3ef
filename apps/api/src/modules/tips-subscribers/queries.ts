import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { SortOf, SubscriberRow } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { cappedCount, countCapOf, nameOrPhoneContains, orderSql, pageOf, pageRows, type ListCount, type ListRequest } from '../../db/list.ts';
import { summed } from '../../db/summaries.ts';
import { portalSessions, subscriptions, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';

interface SubscriberRecord {
  id: number;
  name: string;
  phone: string;
  joined_on: Date | string;
  number_of_subscriptions: number;
}

const toRow = (r: SubscriberRecord): SubscriberRow => ({
  id: r.id,
  name: r.name,
  phone: r.phone,
  joined_on: new Date(r.joined_on).toISOString(),
  number_of_subscriptions: Number(r.number_of_subscriptions),
});

const subscriberSelect = sql`
  select s.id, s.name, s.phone, s.joined_at as joined_on,
         (select count(*) from ${subscriptions} c where c.subscriber_id = s.id)::int as number_of_subscriptions`;

export type SubscriberQuery = ListRequest<SortOf<'tipsSubscribers'>>;
const sorts: Record<SortOf<'tipsSubscribers'>, SQL> = { joined_on: sql`s.joined_at`, name: sql`s.name` };

/** A page of subscribers, newest first; `onlyActive` keeps those with a subscription running now. */
export async function pageSubscribers(
  db: Queryable,
  options: SubscriberQuery & { onlyActive: boolean },
): Promise<ListCount & { subscribers: SubscriberRow[] }> {
  const parts = [sql`true`];
  // subscriptions_subscriber_idx (subscriber_id, expires_at) answers each test.
  if (options.onlyActive) parts.push(sql`exists (select 1 from ${subscriptions} a where a.subscriber_id = s.id and a.expires_at > now())`);
  const search = options.search?.trim();
  if (search) parts.push(nameOrPhoneContains(search, sql`s.name`, sql`s.phone`));
  const where = sql.join(parts, sql` and `);
  const order = orderSql('tipsSubscribers', sorts, sql`s.id`, options);
  const counted: Promise<ListCount> =
    options.onlyActive || search
      ? cappedCount(db, sql`from ${tipsSubscribers} s where ${where}`, countCapOf(options, { testsEachRow: options.onlyActive }))
      : summed(db, 'tips_subscriber').then((t) => ({ total_records: t.n }));
  const [found, count] = await Promise.all([
    rows<SubscriberRecord>(
      db,
      sql`${subscriberSelect}
            from (${pageRows(tipsSubscribers, 's', where, order, pageOf(options))}) s
           order by ${order}`,
    ),
    counted,
  ]);
  return { ...count, subscribers: found.map(toRow) };
}

export async function findSubscriber(db: Queryable, id: number): Promise<SubscriberRow | null> {
  const [found] = await rows<SubscriberRecord>(db, sql`${subscriberSelect} from ${tipsSubscribers} s where s.id = ${id}`);
  return found ? toRow(found) : null;
}

/**
 * The subscriber with this phone, created when new. Returns whether it was created, so the caller
 * audits only a real creation.
 */
export async function findOrCreateByPhone(
  db: Queryable,
  s: { name: string; phone: string; createdBy: number | null },
): Promise<{ id: number; created: boolean }> {
  const [created] = await db
    .insert(tipsSubscribers)
    .values({ name: s.name, phone: s.phone, phoneHash: sha256Hex(s.phone), createdBy: s.createdBy })
    .onConflictDoNothing({ target: tipsSubscribers.phone })
    .returning({ id: tipsSubscribers.id });
  if (created) return { id: created.id, created: true };
  const [existing] = await db
    .select({ id: tipsSubscribers.id })
    .from(tipsSubscribers)
    .where(eq(tipsSubscribers.phone, s.phone));
  return { id: existing!.id, created: false };
}

/** When a phone last signed in to the portal (its newest session), null when never. */
export async function lastPortalSignIn(db: Queryable, phone: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: portalSessions.createdAt })
    .from(portalSessions)
    .where(eq(portalSessions.phone, phone))
    .orderBy(desc(portalSessions.createdAt))
    .limit(1);
  return row?.at ?? null;
}
