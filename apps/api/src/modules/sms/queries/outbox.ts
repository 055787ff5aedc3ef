import { sql, type SQL } from 'drizzle-orm';
import type { Database, Queryable } from '../../../db/client.ts';
import { rows } from '../../../db/rows.ts';
import { phoneLanguages, smsMessages, SMS_PRIORITY, type SmsClass } from '../../../db/schema/index.ts';
import type { Language } from '../../../customer-texts/catalogue.ts';
import { excludedPhoneSql } from '../../../db/sale-blocks.ts';
import { consentedSql, erasedSql } from './consent.ts';
import { optedOutSql } from './opt-outs.ts';

/**
 * Messages a self-excluded person does not get, besides every promotional one (decision 059): the
 * renewal reminder, the failed payment's recovery reminder and the missed standing order's reminder,
 * whatever their class or consent.
 */
export const EXCLUDED_PERSON_SPARED_INTENTS: readonly string[] = ['subscription.reminder', 'payment.recovery-reminder', 'auto-renew.missed'];

/** Whether a self-excluded person is spared this message (`excludedPhoneSql` guards it). */
const sparesExcluded = (smsClass: SmsClass, intent: string) => smsClass === 'promotional' || EXCLUDED_PERSON_SPARED_INTENTS.includes(intent);

/**
 * SQL true when the fan-out leaves this phone out for its person's self-exclusion (decision 059):
 * the rule the fan-out applies, also counted by a broadcast's preview.
 */
export function spareExcludedSql(phone: SQL, smsClass: SmsClass, intent: string): SQL {
  return sparesExcluded(smsClass, intent) ? excludedPhoneSql(phone) : sql`false`;
}

/** One text to many recipients, as the fan-out queues it (the service has settled text and time). */
export interface FanoutRows {
  intent: string;
  dedupeKeyPrefix: string;
  body: string;
  parts: number;
  /** Rows of `phone`, plus `subscriber_id` or `client_id` as `recipientsAre` says. */
  recipients: SQL;
  recipientsAre?: 'subscribers' | 'clients' | undefined;
  createdBy: number | null;
  smsClass: Exclude<SmsClass, 'transactional'>;
  betCategoryId?: number | null | undefined;
  broadcastId?: number | null | undefined;
  firstAttemptAt: Date;
}

/**
 * Queues the fan-out in one INSERT ... SELECT: opted-out and erased phones are left out, and a
 * promotional text goes only to phones with marketing consent; a recipient already sent this
 * intent version (same dedupe key) is skipped. Returns how many rows were queued.
 */
export async function insertFanout(db: Queryable, f: FanoutRows): Promise<number> {
  const subscriberId = f.recipientsAre === 'subscribers' ? sql`r.subscriber_id` : sql`null::integer`;
  const clientId = f.recipientsAre === 'clients' ? sql`r.client_id` : sql`null::integer`;
  const [result] = await rows<{ queued: number }>(
    db,
    sql`with inserted as (
          insert into ${smsMessages} (intent, dedupe_key, recipient, body, parts, priority, subscriber_id, client_id,
                                      created_by, sms_class, broadcast_id, next_attempt_at)
          select ${f.intent}, ${f.dedupeKeyPrefix} || ':' || r.phone, r.phone, ${f.body}, ${f.parts},
                 ${SMS_PRIORITY.bulk}, ${subscriberId}, ${clientId}, ${f.createdBy}, ${f.smsClass},
                 ${f.broadcastId ?? null}::bigint, ${f.firstAttemptAt.toISOString()}::timestamptz
            from (${f.recipients}) as r
           where not ${optedOutSql(sql`r.phone`, f.betCategoryId, f.smsClass === 'promotional')}
             and not ${erasedSql(sql`r.phone`)}
             ${f.smsClass === 'promotional' ? sql`and ${consentedSql(sql`r.phone`)}` : sql``}
             ${sparesExcluded(f.smsClass, f.intent) ? sql`and not ${spareExcludedSql(sql`r.phone`, f.smsClass, f.intent)}` : sql``}
          on conflict (dedupe_key) do nothing
          returning 1)
        select count(*)::int as queued from inserted`,
  );
  return result?.queued ?? 0;
}

// ---- The shared send rate (decision 034) ------------------------------------------------------

/** Takes the send rate's lock for the rest of the transaction: one dispatcher books at a time. */
export async function lockSendRate(tx: Queryable): Promise<void> {
  await tx.execute(sql`insert into rate_buckets (name, tokens) values ('sms', 0) on conflict (name) do nothing`);
  await tx.execute(sql`select name from rate_buckets where name = 'sms' for update`);
}

/**
 * Lets go of the requests that no longer matter: answered over a second ago, or never answered
 * (their dispatcher died) and older than a claim.
 */
export async function forgetPastRequests(tx: Queryable, claimMs: number): Promise<void> {
  await tx.execute(
    sql`delete from sms_send_bookings
         where answered_at < clock_timestamp() - interval '1 second'
            or (answered_at is null and started_at < clock_timestamp() - make_interval(secs => ${claimMs / 1000 + 1}))`,
  );
}

/** The requests that still hold messages, and in how many milliseconds each lets them go (null: unanswered), soonest first. */
export function heldRequests(tx: Queryable): Promise<{ messages: number; free_in_ms: number | null }[]> {
  return rows(
    tx,
    sql`select messages,
               extract(epoch from (answered_at + interval '1 second' - clock_timestamp())) * 1000 as free_in_ms
          from sms_send_bookings order by answered_at nulls last`,
  );
}

/** Books a request of this many messages, leaving now; returns its booking. */
export async function bookRequest(tx: Queryable, messages: number): Promise<number> {
  const [booked] = await rows<{ id: number }>(
    tx,
    sql`insert into sms_send_bookings (messages, started_at) values (${messages}, clock_timestamp()) returning id`,
  );
  return Number(booked!.id);
}

/** The gateway answered the booked request: its messages count for one more second. */
export async function markRequestAnswered(database: Database, booking: number): Promise<void> {
  await database.executeSql(`update sms_send_bookings set answered_at = clock_timestamp() where id = $1`, [booking]);
}

// ---- Dispatch: claim, hand, record -------------------------------------------------------------

/**
 * Messages whose claim ran out: back to the queue when the gateway never had them, else
 * unconfirmed (never resent automatically).
 */
export async function releaseExpiredClaims(database: Database): Promise<void> {
  await database.executeSql(
    `update sms_messages
        set status = case when handed_at is null then 'queued' else 'unconfirmed' end,
            claim_token = case when handed_at is null then null else claim_token end,
            -- never handed over: the next claim chooses the provider again; handed: it stays (decision 062)
            provider = case when handed_at is null then null else provider end,
            last_error = case when handed_at is null then last_error
                              else 'The dispatcher stopped while the gateway had this message; it was not resent' end,
            updated_at = now()
      where status = 'sending' and (claimed_until is null or claimed_until < now())`,
  );
}

/**
 * Claims up to `batchSize` due messages of one text (the oldest due message's); returns how many.
 * Outside the promotional window promotional messages are not due, whatever their next attempt.
 */
export async function claimBatch(
  database: Database,
  token: string,
  batchSize: { single: number; bulk: number },
  claimMs: number,
  due: { now: Date; promotionalOpen: boolean },
  route: ClaimRoute = { provider: null, promotional: true, transactionalFirst: false },
): Promise<number> {
  // The second provider takes transactional texts first (sign-in codes, receipts), and promotional
  // ones only when its promotional sender id is registered and they need not wait (decision 062).
  const order = route.transactionalFirst ? `(sms_class <> 'transactional'), priority, id` : `priority, id`;
  const { rows: claimed } = await database.executeSql(
    `with head as (
       select body, priority, sms_class from sms_messages
        where status = 'queued' and next_attempt_at <= $4 and ($5 or sms_class <> 'promotional')
        order by ${order} limit 1
        for update skip locked
     ), picked as (
       select id, priority, sms_class from sms_messages
        where status = 'queued' and next_attempt_at <= $4 and ($5 or sms_class <> 'promotional')
          and body = (select body from head)
        order by ${order} limit $1
        for update skip locked
     ), taken as (
       -- A bulk text takes fewer (requestSizes: a tenth of the rate stays for one-off messages);
       -- LIMIT cannot read the head, so the rows beyond are locked, not taken, and freed at commit.
       select id from (select id, row_number() over (order by ${order}) as n from picked) numbered
        where n <= (case when (select priority from head) = ${SMS_PRIORITY.single} then $1::int else $6::int end)
     )
     update sms_messages m
        set status = 'sending', attempts = m.attempts + 1, claim_token = $2,
            claimed_until = now() + make_interval(secs => $3), handed_at = null, provider = $7::text, updated_at = now()
       from taken where m.id = taken.id
     returning m.id`,
    [batchSize.single, token, claimMs / 1000, due.now.toISOString(), due.promotionalOpen && route.promotional, batchSize.bulk, route.provider],
  );
  return claimed.length;
}

/** Which provider a claim is for (recorded on each message) and what it may take. */
export interface ClaimRoute {
  provider: string | null;
  /** Promotional texts may be taken (their window aside). */
  promotional: boolean;
  transactionalFirst: boolean;
}

export interface HandedSms {
  id: number;
  recipient: string;
  body: string;
  attempts: number;
  createdAt: Date;
  promotional: boolean;
}

/** Marks the claimed batch as handed to the gateway (committed before the request leaves); returns it by id. */
export async function handToGateway(database: Database, token: string, claimMs: number): Promise<HandedSms[]> {
  const { rows: handed } = await database.executeSql(
    `update sms_messages
        set handed_at = now(), claimed_until = now() + make_interval(secs => $2)
      where claim_token = $1 and status = 'sending' and handed_at is null
      returning id, recipient, body, attempts, sms_class, created_at`,
    [token, claimMs / 1000],
  );
  return handed
    .map((r) => ({
      id: Number(r.id),
      recipient: String(r.recipient),
      body: String(r.body),
      attempts: Number(r.attempts),
      createdAt: new Date(r.created_at as string),
      promotional: r.sms_class === 'promotional',
    }))
    .sort((a, b) => a.id - b.id);
}

/** Each message's fate after a send, column by column (same index, same message). */
export interface OutcomeColumns {
  id: number[];
  status: string[];
  providerId: (string | null)[];
  providerStatus: (string | null)[];
  cost: (number | null)[];
  parts: (number | null)[];
  lastError: (string | null)[];
  failure: (string | null)[];
  cause: (string | null)[];
  retryInSeconds: number[];
}

/**
 * Writes a batch's outcomes in one statement, for the rows this claim still holds. A secret
 * (the intents given, in the order of their stored texts) leaves the database once the gateway had
 * it; only a message going back to the queue keeps its text.
 */
export async function recordBatchOutcomes(
  database: Database,
  token: string,
  columns: OutcomeColumns,
  secrets: { intents: string[]; storedTexts: string[] },
): Promise<void> {
  await database.executeSql(
    `update sms_messages m
        set status = o.status,
            provider_message_id = coalesce(o.provider_id, m.provider_message_id),
            provider_status = coalesce(o.provider_status, m.provider_status),
            cost_cents = coalesce(o.cost, m.cost_cents),
            parts = coalesce(o.parts, m.parts),
            last_error = o.last_error,
            failure_reason = o.failure,
            -- the cause of the last failure (kept while it is retried, cleared once sent)
            failure_cause = o.cause,
            next_attempt_at = now() + make_interval(secs => o.retry_in),
            sent_at = case when o.status = 'sent' then now() else m.sent_at end,
            -- a secret leaves the database once the gateway had it (sent, failed or unconfirmed);
            -- only a message going back to the queue still needs its text
            body = case when m.intent = any($11::text[]) and o.status <> 'queued'
                        then ($12::text[])[array_position($11::text[], m.intent)] else m.body end,
            handed_at = case when o.status = 'queued' then null else m.handed_at end,
            provider = case when o.status = 'queued' then null else m.provider end,
            claim_token = null, claimed_until = null, updated_at = now()
       from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::int[], $7::text[], $8::text[], $9::float8[], $13::text[])
            as o(id, status, provider_id, provider_status, cost, parts, last_error, failure, retry_in, cause)
      where m.id = o.id and m.claim_token = $10 and m.status in ('sending', 'unconfirmed')`,
    [
      columns.id,
      columns.status,
      columns.providerId,
      columns.providerStatus,
      columns.cost,
      columns.parts,
      columns.lastError,
      columns.failure,
      columns.retryInSeconds,
      token,
      secrets.intents,
      secrets.storedTexts,
      columns.cause,
    ],
  );
}

/** Puts one message in the outbox; null when the same dedupe key was queued before. */
/** A message's text: one, or one per language, the phone's chosen language deciding (else `fallback`). */
export type QueuedText = { body: string; parts: number } | { byLanguage: Record<Language, { body: string; parts: number }>; fallback: Language };

export interface QueuedRow {
  intent: string;
  dedupeKey: string;
  recipient: string;
  text: QueuedText;
  smsClass: SmsClass;
  nextAttemptAt: Date;
  priority: number;
  clientId: number | null;
  subscriberId: number | null;
  createdBy: number | null;
  resentFromId: number | null;
  /** The tips category of a service message (STOP <code> opts out of it). */
  betCategoryId?: number | null | undefined;
}

/**
 * Records one message in one statement, unless the phone may not receive it (the outbox's rules,
 * as the fan-out applies them): never to an erased person's phone; a service or promotional message
 * not to a phone opted out of it; a promotional one only with marketing consent. A text written in
 * both languages is chosen by the phone's language in the same statement. Returns the row id, or
 * null when the phone may not receive it or the same dedupe key was queued before.
 */
export async function insertQueuedSms(db: Queryable, row: QueuedRow): Promise<number | null> {
  const [queued] = await rows<{ id: string | number }>(db, queuedSmsInsert([row]));
  return queued ? Number(queued.id) : null;
}

/**
 * `insertQueuedSms`'s statement for one message or several (a caller that writes them with another
 * statement: a rider). Several are inserted in the order given, so their ids, the order the
 * dispatcher sends them in, follow it (a receipt before the tip it announces); each keeps its own
 * guards and dedupe key.
 */
export function queuedSmsInsert(all: readonly QueuedRow[]): SQL {
  const columns = sql`intent, dedupe_key, recipient, body, parts, sms_class, next_attempt_at, priority, client_id, subscriber_id, created_by, resent_from_id`;
  const insert = (source: SQL) => sql`insert into ${smsMessages} (${columns})
        ${source}
        on conflict (dedupe_key) do nothing
        returning id`;
  if (all.length === 1) return insert(queuedSmsSelect(all[0]!));
  // The rows' defaults (their ids) are taken in the sorted order of the select.
  const each = all.map((r, i) => sql`select ${i}::integer as ord, m.* from (${queuedSmsSelect(r)}) m`);
  return insert(sql`select ${columns} from (${sql.join(each, sql` union all `)}) ordered order by ord`);
}

/** One queued message's row, when its phone may receive it (the select of `queuedSmsInsert`). */
function queuedSmsSelect(row: QueuedRow): SQL {
  const phone = sql`${row.recipient}::text`;
  const guards = [sql`not ${erasedSql(phone)}`];
  if (row.smsClass !== 'transactional') guards.push(sql`not ${optedOutSql(phone, row.betCategoryId, row.smsClass === 'promotional')}`);
  if (row.smsClass === 'promotional') guards.push(consentedSql(phone));
  if (sparesExcluded(row.smsClass, row.intent)) guards.push(sql`not ${excludedPhoneSql(phone)}`);
  const t = row.text;
  const chosen = 'body' in t ? null : sql`(select coalesce((select language from ${phoneLanguages} where phone = ${row.recipient}), ${t.fallback}) as language)`;
  const pick = (of: (v: { body: string; parts: number }) => string | number, cast: SQL) =>
    'body' in t ? sql`${of(t)}${cast}` : sql`case when l.language = 'en' then ${of(t.byLanguage.en)}${cast} else ${of(t.byLanguage.sw)}${cast} end`;
  return sql`select ${row.intent}::text as intent, ${row.dedupeKey}::text as dedupe_key, ${phone} as recipient,
               ${pick((v) => v.body, sql`::text`)} as body, ${pick((v) => v.parts, sql`::integer`)} as parts,
               ${row.smsClass}::text as sms_class, ${row.nextAttemptAt.toISOString()}::timestamptz as next_attempt_at, ${row.priority}::smallint as priority,
               ${row.clientId}::integer as client_id, ${row.subscriberId}::integer as subscriber_id, ${row.createdBy}::integer as created_by,
               ${row.resentFromId}::bigint as resent_from_id
          ${chosen ? sql`from ${chosen} l` : sql``}
         where ${sql.join(guards, sql` and `)}`;
}

/**
 * The newest message to this phone under a dedupe prefix since a time that has not failed (queued,
 * on its way, sent, delivered or unconfirmed): a sender that allows one live message a day asks it.
 */
export async function liveMessageSince(db: Queryable, o: { to: string; intent: string; dedupePrefix: string; since: Date }): Promise<{ id: number; status: string } | null> {
  const [row] = await rows<{ id: number; status: string }>(
    db,
    sql`select id::int as id, status from ${smsMessages}
         where recipient = ${o.to} and intent = ${o.intent} and starts_with(dedupe_key, ${o.dedupePrefix})
           and created_at >= ${o.since.toISOString()}::timestamptz and status <> 'failed'
         order by id desc limit 1`,
  );
  return row ?? null;
}
