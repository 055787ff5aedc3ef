import { sql, type SQL } from 'drizzle-orm';
import { localPhone, SMS_STATUSES, type SmsMessage, type SmsMessageDetail, type SmsStatus } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { pageWithTotal, rows } from '../../db/rows.ts';
import { SECRET_SMS_HIDDEN_TEXT, SECRET_SMS_INTENTS } from './outbox.ts';

export interface Page {
  limit: number;
  offset: number;
}

/** Which messages a list shows. */
export interface MessageFilter {
  status?: SmsStatus | undefined;
  /** Digits some part of the recipient's number contains. */
  phoneContains?: string | undefined;
  /** A person's messages: linked to them, or sent to their phone. */
  person?: { clientId: number; phone: string } | { subscriberId: number; phone: string };
}

function whereOf(filter: MessageFilter): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filter.status) conditions.push(sql`m.status = ${filter.status}`);
  if (filter.phoneContains) conditions.push(sql`m.recipient like ${`%${filter.phoneContains}%`}`);
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
function pageSql(where: SQL, page: Page, detail: boolean): SQL {
  return sql`
    with page as (
      select m.*, count(*) over() as total_records
        from sms_messages m
       where ${where}
       order by m.id desc
       limit ${page.limit} offset ${page.offset}
    )
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
     order by p.id desc`;
}

function toMessage(r: Row): SmsMessage {
  return {
    id: Number(r.id),
    phone: localPhone(String(r.recipient)),
    name: textOrNull(r.client_name ?? r.subscriber_name),
    client_id: r.person_client_id == null ? null : Number(r.person_client_id),
    subscriber_id: r.person_subscriber_id == null ? null : Number(r.person_subscriber_id),
    intent: String(r.intent),
    // A temporary password is never shown, even while it waits in the queue.
    message: SECRET_SMS_INTENTS.includes(String(r.intent)) ? SECRET_SMS_HIDDEN_TEXT : String(r.body),
    parts: Number(r.parts),
    status: r.status as SmsStatus,
    attempts: Number(r.attempts),
    cost: r.cost_cents == null ? null : Number(r.cost_cents) / 100,
    failure_reason: textOrNull(r.failure_reason),
    queued_on: iso(r.created_at),
    sent_on: isoOrNull(r.sent_at),
    delivered_on: isoOrNull(r.delivered_at),
    sms_class: r.sms_class as SmsMessage['sms_class'],
    held_until:
      r.status === 'queued' && r.sms_class === 'promotional' && new Date(r.next_attempt_at as string) > new Date()
        ? iso(r.next_attempt_at)
        : null,
  };
}

export async function findMessages(
  db: Queryable,
  filter: MessageFilter,
  page: Page,
): Promise<{ messages: SmsMessage[]; total: number }> {
  const where = whereOf(filter);
  const { found, total } = await pageWithTotal<Row>(
    db,
    { query: pageSql(where, page, false), offset: page.offset },
    sql`select count(*) as total from sms_messages m where ${where}`,
  );
  return { messages: found.map(toMessage), total };
}

/** How many messages of each status match the phone search (the filter buttons' counts). */
export async function countByStatus(db: Queryable, phoneContains: string | undefined): Promise<Record<SmsStatus, number>> {
  const found = await rows<{ status: SmsStatus; n: number }>(
    db,
    sql`select m.status, count(*)::int as n from sms_messages m where ${whereOf({ phoneContains })} group by m.status`,
  );
  const counts = Object.fromEntries(SMS_STATUSES.map((s) => [s, 0])) as Record<SmsStatus, number>;
  for (const r of found) counts[r.status] = Number(r.n);
  return counts;
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
): Promise<boolean> {
  const status = report.outcome === 'in-progress' ? null : report.outcome;
  const [found] = await rows<{ known: number }>(
    db,
    sql`with target as (
          select id from sms_messages where provider_message_id = ${report.providerMessageId}
        ), updated as (
          update sms_messages m
             set status = coalesce(${status}::text, m.status),
                 provider_status = ${report.providerStatus},
                 network_code = coalesce(${report.networkCode}::text, m.network_code),
                 failure_reason = case when ${status}::text = 'failed' then ${report.failureReason ?? report.providerStatus}::text
                                       else m.failure_reason end,
                 delivered_at = case when ${status}::text = 'delivered' then now() else m.delivered_at end,
                 updated_at = now()
            from target
           where m.id = target.id and m.status = 'sent'
          returning m.id)
        -- a data-modifying CTE runs whether or not it is read
        select (select count(*) from target)::int as known`,
  );
  return Number(found?.known ?? 0) > 0;
}
