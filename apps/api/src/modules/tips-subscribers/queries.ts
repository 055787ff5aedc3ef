import { eq, sql } from 'drizzle-orm';
import type { SubscriberRow } from '@betdesk/contract';
import { pageWithTotal, rows } from '../../db/rows.ts';
import { subscriptions, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';

interface SubscriberRecord {
  id: number;
  name: string;
  phone: string;
  joined_on: Date | string;
  number_of_subscriptions: number;
  total_records?: number;
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

/** A page of subscribers, newest first; `onlyActive` keeps those with a subscription running now. */
export async function pageSubscribers(
  db: Queryable,
  options: { page: number; perPage: number; onlyActive: boolean },
): Promise<{ subscribers: SubscriberRow[]; total: number }> {
  const where = options.onlyActive
    ? sql`exists (select 1 from ${subscriptions} a where a.subscriber_id = s.id and a.expires_at > now())`
    : sql`true`;
  const offset = (options.page - 1) * options.perPage;
  const { found, total } = await pageWithTotal<SubscriberRecord>(
    db,
    {
      query: sql`${subscriberSelect}, count(*) over ()::int as total_records
          from ${tipsSubscribers} s
         where ${where}
         order by s.joined_at desc, s.id desc
         limit ${options.perPage} offset ${offset}`,
      offset,
    },
    sql`select count(*)::int as total from ${tipsSubscribers} s where ${where}`,
  );
  return { subscribers: found.map(toRow), total };
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
