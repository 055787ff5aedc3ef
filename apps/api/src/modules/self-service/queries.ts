import { and, eq, isNull, sql } from 'drizzle-orm';
import type { SmsInboundMessage } from '@betdesk/contract';
import { pageWithTotal } from '../../db/rows.ts';
import { betCategories, clients, smsInbound, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

export async function categoryByCode(db: Queryable, code: string): Promise<{ id: number; code: string; name: string } | null> {
  const [found] = await db
    .select({ id: betCategories.id, code: betCategories.code, name: betCategories.name })
    .from(betCategories)
    .where(sql`upper(${betCategories.code}) = ${code.toUpperCase()}`)
    .limit(1);
  return found ?? null;
}

/** The subscriber and the (live) client with this phone, when there are. */
export async function peopleByPhone(db: Queryable, phone: string): Promise<{ subscriberId: number | null; clientId: number | null }> {
  const [subscriber] = await db.select({ id: tipsSubscribers.id }).from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone)).limit(1);
  const [client] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.phone, phone), isNull(clients.deletedAt)))
    .limit(1);
  return { subscriberId: subscriber?.id ?? null, clientId: client?.id ?? null };
}

export async function insertInbound(db: Queryable, row: typeof smsInbound.$inferInsert): Promise<number | null> {
  const [inserted] = await db
    .insert(smsInbound)
    .values(row)
    .onConflictDoNothing({ target: smsInbound.providerId })
    .returning({ id: smsInbound.id });
  return inserted?.id ?? null;
}

export async function setInboundAction(db: Queryable, id: number, action: string): Promise<void> {
  await db.update(smsInbound).set({ action }).where(eq(smsInbound.id, id));
}

interface InboxRow {
  id: number;
  phone: string;
  name: string | null;
  client_id: number | null;
  subscriber_id: number | null;
  text: string;
  keyword: string;
  action: string;
  received_at: string;
  total_records?: string;
}

/** One page of the inbox, newest first; the phone search uses the trigram index. */
export async function inboxPage(
  db: Queryable,
  filter: { phoneContains: string | undefined },
  page: { limit: number; offset: number },
): Promise<{ total: number; messages: SmsInboundMessage[] }> {
  const where = filter.phoneContains ? sql`i.phone like ${`%${filter.phoneContains}%`}` : sql`true`;
  const { found, total } = await pageWithTotal<InboxRow>(
    db,
    {
      query: sql`select i.id, i.phone, coalesce(s.name, c.name) as name, i.client_id, i.subscriber_id, i.text, i.keyword,
                        i.action, i.received_at, count(*) over() as total_records
                   from ${smsInbound} i
                   left join ${tipsSubscribers} s on s.id = i.subscriber_id
                   left join ${clients} c on c.id = i.client_id
                  where ${where}
                  order by i.received_at desc, i.id desc
                  limit ${page.limit} offset ${page.offset}`,
      offset: page.offset,
    },
    sql`select count(*) as total from ${smsInbound} i where ${where}`,
  );
  return {
    total,
    messages: found.map((r) => ({
      id: Number(r.id),
      phone: r.phone,
      name: r.name,
      client_id: r.client_id === null ? null : Number(r.client_id),
      subscriber_id: r.subscriber_id === null ? null : Number(r.subscriber_id),
      text: r.text,
      keyword: r.keyword,
      action: r.action,
      received_on: new Date(r.received_at).toISOString(),
    })),
  };
}

export async function linkInboundSubscriber(db: Queryable, id: number, subscriberId: number): Promise<void> {
  await db.update(smsInbound).set({ subscriberId }).where(eq(smsInbound.id, id));
}
