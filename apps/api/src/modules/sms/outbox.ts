import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { SECRET_SMS_TEXTS } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { smsMessages, SMS_PRIORITY, type SmsClass } from '../../db/schema/index.ts';
import type { Database, Queryable } from '../../db/client.ts';
import { DND_CAUSE, type OutgoingSms, type SendOutcome, type SmsGateway } from '../../integrations/sms/gateway.ts';
import { smsParts } from '../../lib/sms-parts.ts';
import { announce } from '../events/service.ts';
import { getSetting } from '../settings/service.ts';
import { consentedSql, erasedSql, hasConsent, isErasedPhone } from './consent.ts';
import { isOptedOut, optedOutSql, optOut } from './opt-outs.ts';
import { promotionalWindow, windowAt, withOptOutText } from './promotional.ts';

/** Messages carrying a secret (contract's SECRET_SMS_TEXTS): their text is for the recipient only. */
const SECRET_SMS_INTENTS = Object.keys(SECRET_SMS_TEXTS);
/** What is stored, once sent, instead of each secret message's text (same order as the intents). */
const SECRET_SMS_STORED_TEXTS = SECRET_SMS_INTENTS.map((intent) => SECRET_SMS_TEXTS[intent]!);

export interface SmsToQueue {
  /** Why it is sent, e.g. 'user.temporary-password', 'client.message'. */
  intent: string;
  /** Same key, same message: a retried request or a re-run fan-out does not send twice. */
  dedupeKey: string;
  /** E.164 digits. */
  to: string;
  body: string;
  createdBy: number | null;
  /** The person it is for, so their page lists it. */
  clientId?: number | null;
  subscriberId?: number | null;
  /** The failed or unconfirmed message this one sends again (an admin's resend). */
  resentFromId?: number | null;
  /** Transactional (the default) always goes; service and promotional skip opted-out phones. */
  smsClass?: SmsClass;
  /** The tips category a service message belongs to (STOP <code> opts out of it). */
  betCategoryId?: number | null;
  /** The clock deciding the promotional window (tests inject one). */
  now?: Date;
}

/**
 * When a message of this class may first leave: a promotional one queued outside the window waits
 * for it to open (the SMS log shows it as held until then).
 */
async function firstAttemptAt(db: Queryable, smsClass: SmsClass, now: Date): Promise<Date> {
  if (smsClass !== 'promotional') return now;
  return windowAt(now, await promotionalWindow(db)).opensAt;
}

/**
 * Records a message in the outbox. Call it inside the transaction that decides to send, then nudge
 * the dispatcher after commit. Returns the row id, or null when the same dedupe key was queued before.
 */
export async function queueSms(db: Queryable, sms: SmsToQueue): Promise<number | null> {
  const smsClass = sms.smsClass ?? 'transactional';
  // An erased person gets nothing; a promotional message needs marketing consent (decision 025).
  if (await isErasedPhone(db, sms.to)) return null;
  if (smsClass !== 'transactional' && (await isOptedOut(db, sms.to, sms.betCategoryId, smsClass === 'promotional'))) return null;
  if (smsClass === 'promotional' && !(await hasConsent(db, sms.to))) return null;
  const body = smsClass === 'promotional' ? await withOptOutText(db, sms.body) : sms.body;
  const [row] = await db
    .insert(smsMessages)
    .values({
      intent: sms.intent,
      dedupeKey: sms.dedupeKey,
      recipient: sms.to,
      body,
      parts: smsParts(body),
      smsClass,
      nextAttemptAt: await firstAttemptAt(db, smsClass, sms.now ?? new Date()),
      priority: SMS_PRIORITY.single,
      clientId: sms.clientId ?? null,
      subscriberId: sms.subscriberId ?? null,
      createdBy: sms.createdBy,
      resentFromId: sms.resentFromId ?? null,
    })
    .onConflictDoNothing({ target: smsMessages.dedupeKey })
    .returning({ id: smsMessages.id });
  return row?.id ?? null;
}

export interface SmsFanout {
  intent: string;
  /** Each row's dedupe key is `${dedupeKeyPrefix}:${phone}`: once per (intent version, recipient). */
  dedupeKeyPrefix: string;
  body: string;
  /**
   * A query returning one column `phone` (E.164 digits) per recipient, plus `subscriber_id` or
   * `client_id` when `recipientsAre` says so.
   */
  recipients: SQL;
  createdBy: number | null;
  /** Links each row to the person: the recipients query then also returns that id column. */
  recipientsAre?: 'subscribers' | 'clients';
  /**
   * Service (paid tips, the default) or promotional; opted-out and erased phones are never queued,
   * and a promotional message goes only to phones with marketing consent.
   */
  smsClass?: Exclude<SmsClass, 'transactional'>;
  /** The tips category (STOP <code> opts out of it). */
  betCategoryId?: number | null;
  broadcastId?: number | null;
  now?: Date;
}

/**
 * Queues one text to many recipients in one INSERT ... SELECT (no loop of inserts). Recipients
 * already sent this intent version are skipped. Returns how many rows were queued.
 */
export async function queueSmsFanout(db: Queryable, f: SmsFanout): Promise<number> {
  const subscriberId = f.recipientsAre === 'subscribers' ? sql`r.subscriber_id` : sql`null::integer`;
  const clientId = f.recipientsAre === 'clients' ? sql`r.client_id` : sql`null::integer`;
  const smsClass = f.smsClass ?? 'service';
  const body = smsClass === 'promotional' ? await withOptOutText(db, f.body) : f.body;
  const firstAttempt = await firstAttemptAt(db, smsClass, f.now ?? new Date());
  const [result] = await rows<{ queued: number }>(
    db,
    sql`with inserted as (
          insert into ${smsMessages} (intent, dedupe_key, recipient, body, parts, priority, subscriber_id, client_id,
                                      created_by, sms_class, broadcast_id, next_attempt_at)
          select ${f.intent}, ${f.dedupeKeyPrefix} || ':' || r.phone, r.phone, ${body}, ${smsParts(body)},
                 ${SMS_PRIORITY.bulk}, ${subscriberId}, ${clientId}, ${f.createdBy}, ${smsClass},
                 ${f.broadcastId ?? null}::bigint, ${firstAttempt.toISOString()}::timestamptz
            from (${f.recipients}) as r
           where not ${optedOutSql(sql`r.phone`, f.betCategoryId, smsClass === 'promotional')}
             and not ${erasedSql(sql`r.phone`)}
             ${smsClass === 'promotional' ? sql`and ${consentedSql(sql`r.phone`)}` : sql``}
          on conflict (dedupe_key) do nothing
          returning 1)
        select count(*)::int as queued from inserted`,
  );
  return result?.queued ?? 0;
}

export interface DispatchOptions {
  /** Recipients of one text per gateway request (SMS_BATCH_SIZE). */
  batchSize?: number;
  /** Messages per second all dispatchers together hand the gateway at most (SMS_SEND_RATE, shared in rate_buckets). */
  sendRate?: number;
  /** Attempts before a transient failure becomes final (a bound on top of `retryForMs`). */
  maxAttempts?: number;
  /**
   * How long after it was queued a message may still be retried on a transient failure (a gateway
   * outage, an empty balance); the setting `sms_retry_hours` when not given.
   */
  retryForMs?: number;
  /** Wait before attempt n + 1 after attempt n failed transiently. */
  retryDelayMs?: (attempts: number) => number;
  /** How long a claim lasts; longer than one gateway request may take. */
  claimMs?: number;
  /** A run stops after this long (reporting `more`) so a job never outlives its expiry. */
  maxRunMs?: number;
  /** The clock deciding which messages are due and whether the promotional window is open. */
  now?: () => Date;
  /** Shutdown: no new batch is claimed once aborted; the batch in flight is finished and recorded. */
  signal?: AbortSignal;
}

export interface DispatchReport {
  sent: number;
  failed: number;
  retried: number;
  unconfirmed: number;
  /** Batches handed to the gateway. */
  batches: number;
  /** Due messages were left because the run reached its time limit. */
  more: boolean;
}

export const DISPATCH_DEFAULTS = {
  batchSize: 500,
  sendRate: 100,
  // The retry window decides; this only stops a runaway (a day at one attempt an hour is ~30).
  maxAttempts: 100,
  retryForMs: 24 * 3_600_000,
  /** 30 s, 1 min, 2 min ... at most an hour. */
  retryDelayMs: (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000),
  claimMs: 120_000,
  maxRunMs: 300_000,
  now: () => new Date(),
} satisfies Required<Omit<DispatchOptions, 'signal'>>;

interface ClaimedSms extends OutgoingSms {
  attempts: number;
  createdAt: Date;
}

/**
 * Sends due messages through the gateway until none is left (or the run's time is up), at most
 * `sendRate` messages a second. Each batch is one text to up to `batchSize` recipients:
 *
 * 1. claim: due rows become `sending` under a fresh claim token, with SKIP LOCKED, committed;
 * 2. hand: `handed_at` is set (committed) just before the request leaves;
 * 3. record: each recipient's outcome is written in one statement.
 *
 * A dispatcher that dies between 1 and 2 never sent the batch: when the claim expires the rows go
 * back to the queue. One that dies after 2 may have sent it: the rows become `unconfirmed` and are
 * never resent automatically, so no message goes out twice and none is silently lost.
 */
export async function dispatchQueuedSms(
  database: Database,
  gateway: SmsGateway,
  options: DispatchOptions = {},
): Promise<DispatchReport> {
  const retryForMs = options.retryForMs ?? (await getSetting(database.db, 'sms_retry_hours')) * 3_600_000;
  const o = { ...DISPATCH_DEFAULTS, ...options, retryForMs };
  const report: DispatchReport = { sent: 0, failed: 0, retried: 0, unconfirmed: 0, batches: 0, more: false };
  const started = Date.now();
  await releaseExpiredClaims(database);
  const window = await promotionalWindow(database.db);
  for (;;) {
    if (options.signal?.aborted) {
      report.more = true;
      return report;
    }
    if (Date.now() - started >= o.maxRunMs) {
      report.more = true;
      return report;
    }

    const token = randomUUID();
    const now = o.now();
    const due = { now, promotionalOpen: windowAt(now, window).open };
    // A request never carries more than one second's worth of the rate: the gateway sees at most
    // SMS_SEND_RATE messages in any second, not a paced average of larger bursts.
    const claimed = await claimBatch(database, token, Math.min(o.batchSize, Math.max(1, Math.floor(o.sendRate))), o.claimMs, due);
    if (claimed === 0) return report;
    // One pace for every dispatcher of every process: the batch waits for its share of the rate.
    const waitMs = await reserveSendRate(database, claimed, o.sendRate);
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    const batch = await handToGateway(database, token, o.claimMs);
    if (batch.length === 0) continue;
    report.batches += 1;

    const outcomes = await gateway.send(batch.map(({ id, recipient, body, promotional }) => ({ id, recipient, body, promotional }))).catch(
      (error: unknown): SendOutcome[] =>
        batch.map((sms) => ({ id: sms.id, status: 'unconfirmed', reason: `Gateway failed: ${String(error)}` })),
    );
    const byId = new Map(outcomes.map((outcome) => [outcome.id, outcome]));
    const decided = batch.map(
      (sms): SendOutcome =>
        byId.get(sms.id) ?? { id: sms.id, status: 'unconfirmed', reason: 'The gateway gave no outcome' },
    );
    await recordOutcomes(database, token, batch, decided, o, report);
    await optOutRefused(database, batch, decided);
    if (decided.every((outcome) => outcome.status === 'retry')) return report; // gateway trouble: back off
  }
}

/**
 * A send answered 406 UserInBlacklist: the phone asked its network to stop our messages, so it is
 * opted out here too (transactional messages still go; the network decides about those).
 * A send answered 409 DoNotDisturbRejection: the phone's Do Not Disturb setting refuses offers, so
 * it gets no more promotional messages (paid tips and transactional ones still go).
 */
async function optOutRefused(database: Database, batch: ClaimedSms[], outcomes: SendOutcome[]): Promise<void> {
  const causes = new Map(outcomes.map((o) => [o.id, o.status === 'failed' ? (o.cause ?? o.reason) : null]));
  for (const sms of batch) {
    const cause = causes.get(sms.id) ?? '';
    if (/UserInBlack ?list/i.test(cause)) {
      await optOut(database.db, { phone: sms.recipient, scope: 'all', source: 'blacklist', reason: 'The gateway answered 406 UserInBlacklist' });
    } else if (cause === DND_CAUSE) {
      await optOut(database.db, {
        phone: sms.recipient,
        scope: 'promotional',
        source: 'dnd',
        reason: "The gateway answered 409 DoNotDisturbRejection (the subscriber's Do Not Disturb setting)",
      });
    }
  }
}

/**
 * The send rate shared by every dispatcher (decision 023), as one row in the database: each second
 * of the clock holds at most `rate` messages. A batch (never more than one second's worth) takes
 * room in the latest booked second, or books the next one and waits for it to begin; nothing is
 * saved up while idle. So the gateway never sees more than SMS_SEND_RATE messages in a second,
 * however many dispatchers of however many processes send. Answers when the batch may leave.
 */
export async function reserveSendWindow(
  database: Database,
  messages: number,
  rate: number,
): Promise<{ waitMs: number; windowStart: number }> {
  const { rows } = await database.executeSql(
    `insert into rate_buckets as b (name, tokens, refilled_at) values ('sms', $2::float8, date_trunc('second', clock_timestamp()))
     on conflict (name) do update set
       refilled_at = case
         when b.refilled_at < date_trunc('second', clock_timestamp()) then date_trunc('second', clock_timestamp())
         when b.tokens + $2::float8 <= $1::float8 then b.refilled_at
         else b.refilled_at + make_interval(secs => ceil($2::float8 / $1::float8)) end,
       tokens = case
         when b.refilled_at < date_trunc('second', clock_timestamp()) then $2::float8
         when b.tokens + $2::float8 <= $1::float8 then b.tokens + $2::float8
         else $2::float8 end
     returning extract(epoch from refilled_at) * 1000 as window_start,
               extract(epoch from (refilled_at - clock_timestamp())) * 1000 as wait_ms`,
    [rate, messages],
  );
  const row = rows[0]!;
  return { waitMs: Math.max(0, Math.ceil(Number(row.wait_ms))), windowStart: Math.round(Number(row.window_start)) };
}

export async function reserveSendRate(database: Database, messages: number, rate: number): Promise<number> {
  return (await reserveSendWindow(database, messages, rate)).waitMs;
}

async function releaseExpiredClaims(database: Database): Promise<void> {
  await database.executeSql(
    `update sms_messages
        set status = case when handed_at is null then 'queued' else 'unconfirmed' end,
            claim_token = case when handed_at is null then null else claim_token end,
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
async function claimBatch(
  database: Database,
  token: string,
  batchSize: number,
  claimMs: number,
  due: { now: Date; promotionalOpen: boolean },
): Promise<number> {
  const { rows: claimed } = await database.executeSql(
    `with head as (
       select body from sms_messages
        where status = 'queued' and next_attempt_at <= $4 and ($5 or sms_class <> 'promotional')
        order by priority, id limit 1
        for update skip locked
     ), picked as (
       select id from sms_messages
        where status = 'queued' and next_attempt_at <= $4 and ($5 or sms_class <> 'promotional')
          and body = (select body from head)
        order by priority, id limit $1
        for update skip locked
     )
     update sms_messages m
        set status = 'sending', attempts = m.attempts + 1, claim_token = $2,
            claimed_until = now() + make_interval(secs => $3), handed_at = null, updated_at = now()
       from picked where m.id = picked.id
     returning m.id`,
    [batchSize, token, claimMs / 1000, due.now.toISOString(), due.promotionalOpen],
  );
  return claimed.length;
}

async function handToGateway(database: Database, token: string, claimMs: number): Promise<ClaimedSms[]> {
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

async function recordOutcomes(
  database: Database,
  token: string,
  batch: ClaimedSms[],
  outcomes: SendOutcome[],
  o: Required<Omit<DispatchOptions, 'signal'>>,
  report: DispatchReport,
): Promise<void> {
  const attemptsOf = new Map(batch.map((sms) => [sms.id, sms.attempts]));
  const queuedAt = new Map(batch.map((sms) => [sms.id, sms.createdAt.getTime()]));
  const now = o.now().getTime();
  const columns = {
    id: [] as number[],
    status: [] as string[],
    providerId: [] as (string | null)[],
    providerStatus: [] as (string | null)[],
    cost: [] as (number | null)[],
    parts: [] as (number | null)[],
    lastError: [] as (string | null)[],
    failure: [] as (string | null)[],
    cause: [] as (string | null)[],
    retryInSeconds: [] as number[],
  };
  for (const outcome of outcomes) {
    const attempts = attemptsOf.get(outcome.id) ?? 1;
    let status: string = outcome.status;
    let failure: string | null = null;
    let lastError: string | null = null;
    let retryIn = 0;
    const cause = outcome.status === 'failed' || outcome.status === 'retry' ? (outcome.cause ?? outcome.reason).slice(0, 60) : null;
    const waited = now - (queuedAt.get(outcome.id) ?? now);
    if (outcome.status === 'sent') {
      report.sent += 1;
    } else if (outcome.status === 'failed') {
      report.failed += 1;
      failure = lastError = outcome.reason;
    } else if (outcome.status === 'unconfirmed') {
      report.unconfirmed += 1;
      lastError = outcome.reason;
    } else if (attempts >= o.maxAttempts || waited >= o.retryForMs) {
      report.failed += 1;
      status = 'failed';
      lastError = outcome.reason;
      const hours = Math.round((waited / 3_600_000) * 10) / 10;
      failure = `${outcome.reason} (gave up after ${attempts} attempts${hours >= 1 ? ` over ${hours} hours` : ''})`;
    } else {
      report.retried += 1;
      status = 'queued';
      lastError = outcome.reason;
      retryIn = o.retryDelayMs(attempts) / 1000;
    }
    columns.id.push(outcome.id);
    columns.status.push(status);
    columns.providerId.push(outcome.status === 'sent' && outcome.providerMessageId ? outcome.providerMessageId : null);
    columns.providerStatus.push(
      (outcome.status === 'sent' || outcome.status === 'failed') && outcome.providerStatus ? outcome.providerStatus : null,
    );
    columns.cost.push(outcome.status === 'sent' ? outcome.costCents : null);
    columns.parts.push(outcome.status === 'sent' ? (outcome.parts ?? null) : null);
    columns.lastError.push(lastError);
    columns.failure.push(failure);
    columns.cause.push(cause);
    columns.retryInSeconds.push(retryIn);
  }
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
      SECRET_SMS_INTENTS,
      SECRET_SMS_STORED_TEXTS,
      columns.cause,
    ],
  );
  // One announcement per status of the batch, not one per message: a blast is 100,000 messages.
  const counts = new Map<string, number>();
  for (const status of columns.status) counts.set(status, (counts.get(status) ?? 0) + 1);
  for (const [status, count] of counts) await announce(database.db, { type: 'sms.status', status, count });
}
