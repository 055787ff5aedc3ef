import { asc, eq, sql, type SQL } from 'drizzle-orm';
import {
  centsToKesOrNull,
  COUNT_CAP,
  localPhone,
  SMS_STATUSES,
  smsTextForStaff,
  type SmsMessage,
  type SmsMessageDetail,
  type SmsStatus,
} from '@betdesk/contract';
import type { Queryable } from '../../../db/client.ts';
import { rows } from '../../../db/rows.ts';
import { smsMessages } from '../../../db/schema/index.ts';
import { exactCount, inDays, type ListCount } from '../../../db/list.ts';
import { parseSummaryKey, summedByKey, type DayRange } from '../../../db/summaries.ts';

export interface Page {
  limit: number;
  offset: number;
}

/** Which messages a list shows. */
export interface MessageFilter {
  status?: SmsStatus | undefined;
  /** Inclusive Nairobi days of queueing. */
  days?: DayRange;
  /** Digits some part of the recipient's number contains. */
  phoneContains?: string | undefined;
  /** The provider it was handed to (decision 062). */
  provider?: string | undefined;
  /** A person's messages: linked to them, or sent to their phone. */
  person?: { clientId: number; phone: string } | { subscriberId: number; phone: string };
}

function whereOf(filter: MessageFilter): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filter.status) conditions.push(sql`m.status = ${filter.status}`);
  if (filter.phoneContains) conditions.push(sql`m.recipient like ${`%${filter.phoneContains}%`}`);
  if (filter.provider) conditions.push(sql`m.provider = ${filter.provider}`);
  if (filter.days) conditions.push(inDays(sql`m.created_at`, filter.days));
  const person = filter.person;
  if (person && 'clientId' in person) {
    conditions.push(sql`(m.client_id = ${person.clientId} or m.recipient = ${person.phone})`);
  } else if (person) {
    conditions.push(sql`(m.subscriber_id = ${person.subscriberId} or m.recipient = ${person.phone})`);
  }
  return sql.join(conditions, sql` and `);
}

type Row = Record<string, unknown>;

const iso = (value: unknown): string => new Date(value as string).toISOString();
const isoOrNull = (value: unknown): string | null => (value == null ? null : iso(value));
const textOrNull = (value: unknown): string | null => (value == null ? null : String(value));

/**
 * The page is chosen first (index on id, or status+id, or the recipient trigram), then the person
 * each row is for is looked up for those rows only: linked ids first, else the phone.
 */
function pageSql(where: SQL, page: Page, detail: boolean, order: MessageOrder = newestFirst): SQL {
  // A person's messages (few) are collected first through sms_client_idx / sms_recipient_idx and
  // then ordered; left to itself the planner walks the whole table newest first looking for them.
  const picked =
    order === newestFirst
      ? sql`with mine as materialized (select m.id from sms_messages m where ${where}),
            page as (
              select m.* from sms_messages m
               where m.id in (select id from mine order by id desc limit ${page.limit} offset ${page.offset})
            )`
      : sql`with page as (
              select m.* from sms_messages m
               where ${where}
               order by ${order.inner}
               limit ${page.limit} offset ${page.offset}
            )`;
  return sql`
    ${picked}
    select p.*, c.id as person_client_id, c.name as client_name, s.id as person_subscriber_id, s.name as subscriber_name
           ${detail ? sql`, u.name as created_by_name` : sql``}
      from page p
      left join lateral (
        select c.id, c.name from clients c
         where c.id = coalesce(p.client_id,
                 (select c2.id from clients c2 where c2.phone = p.recipient and c2.deleted_at is null limit 1))
      ) c on true
      left join lateral (
        select s.id, s.name from tips_subscribers s
         where s.id = coalesce(p.subscriber_id, (select s2.id from tips_subscribers s2 where s2.phone = p.recipient))
      ) s on true
      ${detail ? sql`left join users u on u.id = p.created_by` : sql``}
     order by ${order.outer}`;
}

/** The order of a page, over m (the messages) and again over p (the picked page). */
interface MessageOrder {
  inner: SQL;
  outer: SQL;
}

/** A person's messages page by id off sms_client_idx / sms_subscriber_idx. */
const newestFirst: MessageOrder = { inner: sql`m.id desc`, outer: sql`p.id desc` };

/** The log pages by the queueing time off sms_created_idx / sms_status_created_idx. */
const byQueueing = (dir: 'asc' | 'desc'): MessageOrder => {
  const d = sql.raw(dir);
  return { inner: sql`m.created_at ${d}, m.id ${d}`, outer: sql`p.created_at ${d}, p.id ${d}` };
};

function toMessage(r: Row): SmsMessage {
  return {
    id: Number(r.id),
    phone: localPhone(String(r.recipient)),
    name: textOrNull(r.client_name ?? r.subscriber_name),
    client_id: r.person_client_id == null ? null : Number(r.person_client_id),
    subscriber_id: r.person_subscriber_id == null ? null : Number(r.person_subscriber_id),
    intent: String(r.intent),
    // A temporary password or sign-in code is never shown, even while it waits in the queue.
    message: smsTextForStaff(String(r.intent), String(r.body)),
    parts: Number(r.parts),
    status: r.status as SmsStatus,
    attempts: Number(r.attempts),
    cost: centsToKesOrNull(r.cost_cents),
    failure_reason: textOrNull(r.failure_reason),
    failure_cause: textOrNull(r.failure_cause),
    queued_on: iso(r.created_at),
    sent_on: isoOrNull(r.sent_at),
    delivered_on: isoOrNull(r.delivered_at),
    sms_class: r.sms_class as SmsMessage['sms_class'],
    held_until:
      r.status === 'queued' && r.sms_class === 'promotional' && new Date(r.next_attempt_at as string) > new Date()
        ? iso(r.next_attempt_at)
        : null,
    provider: textOrNull(r.provider),
  };
}

/** A person's messages, newest first, counted exactly (a person has few). */
export async function findMessages(db: Queryable, filter: MessageFilter, page: Page): Promise<{ messages: SmsMessage[]; total: number }> {
  const where = whereOf(filter);
  const [found, total] = await Promise.all([
    rows<Row>(db, pageSql(where, page, false)),
    exactCount(db, sql`from sms_messages m where ${where}`),
  ]);
  return { messages: found.map(toMessage), total };
}

/**
 * The SMS log: one page off sms_created_idx (or sms_status_created_idx with a status), in the
 * asked direction. Its counts come from the day summaries (`sms:<status>`), or, with a phone
 * search, from the matching messages up to the count cap.
 */
export async function findLogMessages(
  db: Queryable,
  filter: MessageFilter,
  page: Page,
  dir: 'asc' | 'desc',
): Promise<ListCount & { messages: SmsMessage[]; status_counts: Record<SmsStatus, number> }> {
  const where = whereOf(filter);
  const [found, counts] = await Promise.all([
    rows<Row>(db, pageSql(where, page, false, byQueueing(dir))),
    countByStatus(db, filter),
  ]);
  const status_counts = counts.byStatus;
  const total = filter.status ? status_counts[filter.status] : Object.values(status_counts).reduce((a, b) => a + b, 0);
  return {
    messages: found.map(toMessage),
    status_counts,
    ...(counts.capped ? { total_records: Math.min(total, COUNT_CAP), total_capped: total >= COUNT_CAP } : { total_records: total }),
  };
}

/** How many messages of each status the days (and phone search) hold: the filter buttons' counts. */
async function countByStatus(db: Queryable, filter: MessageFilter): Promise<{ byStatus: Record<SmsStatus, number>; capped: boolean }> {
  const counts = Object.fromEntries(SMS_STATUSES.map((s) => [s, 0])) as Record<SmsStatus, number>;
  if (!filter.phoneContains && !filter.provider) {
    for (const r of await summedByKey(db, 'sms:', filter.days)) {
      const key = parseSummaryKey(r.key);
      if (key?.kind === 'sms' && key.status in counts) counts[key.status as SmsStatus] = r.n;
    }
    return { byStatus: counts, capped: false };
  }
  const found = await rows<{ status: SmsStatus; n: string }>(
    db,
    sql`select status, count(*) as n
          from (select m.status from sms_messages m
                 where ${whereOf({ phoneContains: filter.phoneContains, provider: filter.provider, days: filter.days })} limit ${COUNT_CAP + 1}) m
         group by status`,
  );
  let seen = 0;
  for (const r of found) {
    counts[r.status] = Number(r.n);
    seen += Number(r.n);
  }
  return { byStatus: counts, capped: seen > COUNT_CAP };
}

export async function findMessage(db: Queryable, id: number): Promise<SmsMessageDetail | undefined> {
  const [r] = await rows<Row>(db, pageSql(sql`m.id = ${id}`, { limit: 1, offset: 0 }, true));
  if (!r) return undefined;
  return {
    ...toMessage(r),
    provider_message_id: textOrNull(r.provider_message_id),
    provider_status: textOrNull(r.provider_status),
    network_code: textOrNull(r.network_code),
    last_error: textOrNull(r.last_error),
    next_attempt_on: r.status === 'queued' ? isoOrNull(r.next_attempt_at) : null,
    created_by: textOrNull(r.created_by_name),
    updated_on: iso(r.updated_at),
    resent_from_id: r.resent_from_id == null ? null : Number(r.resent_from_id),
    resent_as_ids: await resendIdsOf(db, id),
  };
}

/** The messages that send this one again, oldest first (partial index sms_resent_from_idx). */
async function resendIdsOf(db: Queryable, id: number): Promise<number[]> {
  const found = await rows<{ id: number }>(
    db,
    sql`select id from sms_messages where resent_from_id = ${id} and resent_from_id is not null order by id`,
  );
  return found.map((r) => Number(r.id));
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'in-progress';

/**
 * Applies a delivery report to the message with this provider id. A final report (delivered or
 * failed) settles a sent message; an intermediate one only records the gateway's word. A message
 * already settled keeps its fate. Returns whether the id is known.
 */
export async function applyDeliveryReport(
  db: Queryable,
  report: { providerMessageId: string; outcome: DeliveryOutcome; providerStatus: string; networkCode: string | null; failureReason: string | null },
  /** The provider the report came from (decision 062): its ids are its own; null: Africa's Talking's (or an older message's). */
  provider: string | null = null,
): Promise<boolean> {
  return (await applyProviderReport(db, report, provider)).known;
}

/** `applyDeliveryReport`, also answering the recipient of a message this report settled as failed. */
export async function applyProviderReport(
  db: Queryable,
  report: { providerMessageId: string; outcome: DeliveryOutcome; providerStatus: string; networkCode: string | null; failureReason: string | null },
  provider: string | null,
): Promise<{ known: boolean; failedRecipient: string | null }> {
  const status = report.outcome === 'in-progress' ? null : report.outcome;
  const ofProvider = provider ? sql`provider = ${provider}` : sql`(provider is null or provider = 'africastalking' or provider = 'log')`;
  const [found] = await rows<{ known: number; failed_recipient: string | null }>(
    db,
    sql`with target as (
          select id from sms_messages where provider_message_id = ${report.providerMessageId} and ${ofProvider}
        ), updated as (
          update sms_messages m
             set status = coalesce(${status}::text, m.status),
                 provider_status = ${report.providerStatus},
                 network_code = coalesce(${report.networkCode}::text, m.network_code),
                 failure_reason = case when ${status}::text = 'failed' then ${report.failureReason ?? report.providerStatus}::text
                                       else m.failure_reason end,
                 failure_cause = case when ${status}::text = 'failed' then ${report.failureReason ?? report.providerStatus}::text
                                      else m.failure_cause end,
                 delivered_at = case when ${status}::text = 'delivered' then now() else m.delivered_at end,
                 updated_at = now()
            from target
           where m.id = target.id and m.status = 'sent'
          returning m.id, m.recipient, m.status)
        -- a data-modifying CTE runs whether or not it is read
        select (select count(*) from target)::int as known,
               (select recipient from updated where status = 'failed' limit 1) as failed_recipient`,
  );
  return { known: Number(found?.known ?? 0) > 0, failedRecipient: found?.failed_recipient ?? null };
}

/** Sent messages of the provider with no delivery report this long after sending (getdlr asks for them), oldest first. */
export async function reportsDue(db: Queryable, provider: string, olderThan: Date, limit: number): Promise<{ id: number; provider_message_id: string }[]> {
  const found = await rows<{ id: number; provider_message_id: string }>(
    db,
    sql`update sms_messages m set dlr_asked_at = now()
          from (select id from sms_messages
                 where status = 'sent' and provider = ${provider} and provider_message_id is not null
                   and sent_at < ${olderThan.toISOString()}::timestamptz
                   and (dlr_asked_at is null or dlr_asked_at < ${olderThan.toISOString()}::timestamptz)
                 order by sent_at limit ${limit}
                 for update skip locked) due
         where m.id = due.id
        returning m.id, m.provider_message_id`,
  );
  return found.map((r) => ({ id: Number(r.id), provider_message_id: String(r.provider_message_id) }));
}

/** A message as stored, locked until the transaction ends (an admin's resend decides on it). */
export async function lockMessage(tx: Queryable, id: number): Promise<typeof smsMessages.$inferSelect | undefined> {
  const [message] = await tx.select().from(smsMessages).where(eq(smsMessages.id, id)).for('update');
  return message;
}

/** The messages that send this one again, oldest first, with their status. */
export function resendsOf(tx: Queryable, id: number): Promise<{ id: number; status: string }[]> {
  return tx
    .select({ id: smsMessages.id, status: smsMessages.status })
    .from(smsMessages)
    .where(eq(smsMessages.resentFromId, id))
    .orderBy(asc(smsMessages.id));
}

/** A month's messages handed to a provider, per provider and class: their parts and the cost the provider gave (cents). */
export async function costByProvider(
  db: Queryable,
  /** YYYY-MM, a month of Africa/Nairobi days. */
  month: string,
): Promise<{ provider: string; sms_class: string; messages: number; parts: number; known_cents: number; unpriced_parts: number }[]> {
  const found = await rows<Record<string, unknown>>(
    db,
    sql`select provider, sms_class, count(*)::int as messages, coalesce(sum(parts), 0)::bigint as parts,
               coalesce(sum(cost_cents), 0)::bigint as known_cents,
               coalesce(sum(parts) filter (where cost_cents is null), 0)::bigint as unpriced_parts
          from sms_messages
         where provider is not null and handed_at is not null and status in ('sent', 'delivered', 'failed', 'unconfirmed')
           and created_at >= (${`${month}-01`}::date)::timestamp at time zone 'Africa/Nairobi'
           and created_at < ((${`${month}-01`}::date + interval '1 month')::date)::timestamp at time zone 'Africa/Nairobi'
           and not (status = 'failed' and sent_at is null)
         group by provider, sms_class order by provider, sms_class`,
  );
  return found.map((r) => ({
    provider: String(r.provider),
    sms_class: String(r.sms_class),
    messages: Number(r.messages),
    parts: Number(r.parts),
    known_cents: Number(r.known_cents),
    unpriced_parts: Number(r.unpriced_parts),
  }));
}
