import { randomUUID } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { SECRET_SMS_TEXTS } from '@betdesk/contract';
import { ERASED_PHONE_PREFIX, SMS_PRIORITY, type SmsClass } from '../../db/schema/index.ts';
import type { Language } from '../../customer-texts/catalogue.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { Rider } from '../../db/riders.ts';
import { DND_CAUSE, type SendOutcome, type SmsGateway } from '../../integrations/sms/gateway.ts';
import { smsParts } from '@betdesk/contract';
import { announce } from '../events/service.ts';
import { getSetting } from '../settings/service.ts';
import { optOut } from './opt-outs.ts';
import { checkProviderHealth, recordProviderResult, usableProviders, type SmsProviders } from './circuit.ts';
import { promotionalWindow, windowAt, withOptOutText } from './promotional.ts';
import * as q from './queries/outbox.ts';

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
 * the dispatcher after commit. Returns the row id, or null when the phone may not receive it (an
 * erased person's; opted out of a service or promotional message; a promotional one without
 * consent, decision 025) or the same dedupe key was queued before. The phone's rules are checked in
 * the insert itself: one statement.
 */
export async function queueSms(db: Queryable, sms: SmsToQueue): Promise<number | null> {
  const smsClass = sms.smsClass ?? 'transactional';
  const body = smsClass === 'promotional' ? await withOptOutText(db, sms.body) : sms.body;
  return insertGuarded(db, sms, smsClass, { body, parts: smsParts(body) });
}

/**
 * `queueSms` for a text written in both languages: the phone's chosen language (else `fallback`,
 * the business's default) picks it in the same statement. Not for promotional messages.
 */
export async function queueSmsInTheirLanguage(
  db: Queryable,
  sms: Omit<SmsToQueue, 'body' | 'smsClass'> & { smsClass?: Exclude<SmsClass, 'promotional'>; bodies: Record<Language, string>; fallback: Language },
): Promise<number | null> {
  return insertGuarded(db, sms, sms.smsClass ?? 'transactional', bilingualText(sms));
}

/** Both languages' texts, each with its SMS parts, and the language to use when the phone chose none. */
function bilingualText(sms: { bodies: Record<Language, string>; fallback: Language }): q.QueuedText {
  const text = (body: string) => ({ body, parts: smsParts(body) });
  return { byLanguage: { en: text(sms.bodies.en), sw: text(sms.bodies.sw) }, fallback: sms.fallback };
}

/**
 * A message written by another statement of the transaction (a sale's invoice) instead of its own:
 * one round trip fewer (src/db/riders.ts). `smsInOrderRider` writes such messages, in order, with
 * the same guards as `queueSms` (an erased person's phone; a service message's opt-outs).
 */
export type RidingSms = q.QueuedRow;

/** `queueSmsInTheirLanguage`'s message, to ride (`smsInOrderRider`). Null when the phone is an erased person's. */
export function ridingSmsInTheirLanguage(sms: Omit<SmsToQueue, 'body' | 'smsClass'> & { bodies: Record<Language, string>; fallback: Language }): RidingSms | null {
  if (sms.to.startsWith(ERASED_PHONE_PREFIX)) return null;
  return queuedRow(sms, 'transactional', bilingualText(sms), sms.now ?? new Date());
}

/**
 * `queueSms`'s message, to ride (`smsInOrderRider`). Null when the phone is an erased person's. Not
 * for promotional messages (their window and opt-out line are read first).
 */
export function ridingSms(sms: SmsToQueue & { smsClass?: Exclude<SmsClass, 'promotional'> }): RidingSms | null {
  if (sms.to.startsWith(ERASED_PHONE_PREFIX)) return null;
  return queuedRow(sms, sms.smsClass ?? 'transactional', { body: sms.body, parts: smsParts(sms.body) }, sms.now ?? new Date());
}

/** The messages as one rider: one insert, their ids (the order they leave in) in the order given. Null when there are none. */
export function smsInOrderRider(messages: readonly RidingSms[]): Rider | null {
  return messages.length > 0 ? q.queuedSmsInsert(messages) : null;
}

function queuedRow(sms: Omit<SmsToQueue, 'body'>, smsClass: SmsClass, text: q.QueuedText, nextAttemptAt: Date): q.QueuedRow {
  return {
    intent: sms.intent,
    dedupeKey: sms.dedupeKey,
    recipient: sms.to,
    text,
    smsClass,
    nextAttemptAt,
    priority: SMS_PRIORITY.single,
    clientId: sms.clientId ?? null,
    subscriberId: sms.subscriberId ?? null,
    createdBy: sms.createdBy,
    resentFromId: sms.resentFromId ?? null,
    betCategoryId: sms.betCategoryId ?? null,
  };
}

async function insertGuarded(db: Queryable, sms: Omit<SmsToQueue, 'body'>, smsClass: SmsClass, text: q.QueuedText): Promise<number | null> {
  // An erased person gets nothing; a promotional message needs marketing consent (decision 025).
  if (sms.to.startsWith(ERASED_PHONE_PREFIX)) return null;
  return q.insertQueuedSms(db, queuedRow(sms, smsClass, text, await firstAttemptAt(db, smsClass, sms.now ?? new Date())));
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
  const smsClass = f.smsClass ?? 'service';
  const body = smsClass === 'promotional' ? await withOptOutText(db, f.body) : f.body;
  return q.insertFanout(db, {
    intent: f.intent,
    dedupeKeyPrefix: f.dedupeKeyPrefix,
    body,
    parts: smsParts(body),
    recipients: f.recipients,
    recipientsAre: f.recipientsAre,
    createdBy: f.createdBy,
    smsClass,
    betCategoryId: f.betCategoryId,
    broadcastId: f.broadcastId,
    firstAttemptAt: await firstAttemptAt(db, smsClass, f.now ?? new Date()),
  });
}

export interface DispatchOptions {
  /** Recipients of one text per gateway request (SMS_BATCH_SIZE). */
  batchSize?: number;
  /** Messages per second all dispatchers together hand the gateway at most (SMS_SEND_RATE, shared in sms_send_bookings). */
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

/**
 * How many messages one gateway request may carry: at most a second's worth of the rate, and for a
 * bulk text (a tips blast, a broadcast) a tenth of the rate less (decision 058). That tenth is kept
 * for one-off messages: a sign-in code queued while a broadcast drains goes with the next request,
 * beside the broadcast's second, instead of waiting a whole second for room behind it (p99 2.2 s
 * before, see docs/performance.md).
 */
export function requestSizes(batchSize: number, sendRate: number): { single: number; bulk: number } {
  const rate = Math.max(1, Math.floor(sendRate));
  const single = Math.min(batchSize, rate);
  return { single, bulk: Math.max(1, Math.min(single, rate - Math.ceil(rate / 10))) };
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
  gateways: SmsGateway | SmsProviders,
  options: DispatchOptions = {},
): Promise<DispatchReport> {
  const providers: SmsProviders = 'send' in gateways ? { primary: gateways, secondary: null } : gateways;
  const retryForMs = options.retryForMs ?? (await getSetting(database.db, 'sms_retry_hours')) * 3_600_000;
  const o = { ...DISPATCH_DEFAULTS, ...options, retryForMs };
  const report: DispatchReport = { sent: 0, failed: 0, retried: 0, unconfirmed: 0, batches: 0, more: false };
  const started = Date.now();
  await q.releaseExpiredClaims(database);
  const window = await promotionalWindow(database.db);
  if (providers.secondary) await checkProviderHealth(database.db, providers, o.now());
  const promotionalWaits = providers.secondary ? await getSetting(database.db, 'sms_promotional_waits_for_primary') : false;
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
    // The provider is chosen per batch, at claim time (decision 062): the primary while its circuit
    // is closed, else the second aggregator; an open circuit past its delay gets one probe batch.
    const usable = await usableProviders(database.db, providers, now, o.claimMs);
    const choice = usable[0];
    if (!choice) return report; // every provider is down: the queue waits for a probe
    const route: q.ClaimRoute = {
      provider: choice.gateway.name,
      promotional: choice.primary || (choice.gateway.carriesPromotional !== false && !promotionalWaits),
      transactionalFirst: !choice.primary,
    };
    const sizes = choice.probe ? { single: 1, bulk: 1 } : requestSizes(o.batchSize, o.sendRate);
    // A request never carries more than one second's worth of the rate: the gateway sees at most
    // SMS_SEND_RATE messages in any second, not a paced average of larger bursts.
    const claimed = await q.claimBatch(database, token, sizes, o.claimMs, due, route);
    if (claimed === 0) return report;
    // One pace for every dispatcher of every process: the batch waits for room in the rate.
    const booking = await waitForGatewayRoom(database, claimed, o.sendRate, o.claimMs);
    const batch = await q.handToGateway(database, token, o.claimMs);
    if (batch.length === 0) {
      await markGatewayAnswered(database, booking);
      continue;
    }
    report.batches += 1;

    const outcomes = await choice.gateway
      .send(batch.map(({ id, recipient, body, promotional }) => ({ id, recipient, body, promotional })))
      .catch(
        (error: unknown): SendOutcome[] =>
          batch.map((sms) => ({ id: sms.id, status: 'unconfirmed', reason: `Gateway failed: ${String(error)}` })),
      )
      .finally(() => markGatewayAnswered(database, booking));
    const byId = new Map(outcomes.map((outcome) => [outcome.id, outcome]));
    const decided = batch.map(
      (sms): SendOutcome =>
        byId.get(sms.id) ?? { id: sms.id, status: 'unconfirmed', reason: 'The gateway gave no outcome' },
    );
    if (providers.secondary) await recordProviderResult(database.db, choice.gateway.name, decided, now);
    // Refused before acceptance with another provider to take it: back to the queue at once, for
    // the next claim to route (decision 062). An unconfirmed message never is.
    const rerouted = providers.secondary ? decided.map(reroutable) : decided;
    await recordOutcomes(database, token, batch, rerouted, o, report);
    await optOutRefused(database, batch, decided);
    if (rerouted.every((outcome) => outcome.status === 'retry' && !(outcome as { again?: boolean }).again)) return report; // gateway trouble: back off
  }
}

/** A refusal before acceptance becomes a retry due now, to go through whichever provider is up. */
function reroutable(outcome: SendOutcome): SendOutcome {
  if ((outcome.status === 'retry' || outcome.status === 'failed') && outcome.refused) {
    return { id: outcome.id, status: 'retry', reason: outcome.reason, cause: outcome.cause ?? outcome.reason, again: true } as SendOutcome;
  }
  return outcome;
}

/**
 * A send answered 406 UserInBlacklist: the phone asked its network to stop our messages, so it is
 * opted out here too (transactional messages still go; the network decides about those).
 * A send answered 409 DoNotDisturbRejection: the phone's Do Not Disturb setting refuses offers, so
 * it gets no more promotional messages (paid tips and transactional ones still go).
 */
async function optOutRefused(database: Database, batch: q.HandedSms[], outcomes: SendOutcome[]): Promise<void> {
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
 * The send rate shared by every dispatcher of every process (decision 034). A batch may leave only
 * when it and every request that could reach the gateway within one second of it hold at most
 * `rate` messages: those still waiting for their answer, and those answered less than a second
 * ago. A request reaches the gateway after it was allowed and before its answer came back, so two
 * requests that must not share a second arrive at least a second apart however late either runs
 * on a loaded machine: the gateway never sees more than SMS_SEND_RATE messages in any second.
 * (Decision 023 booked seconds of the database's clock, and a batch sent late in its second landed
 * beside the next second's at the gateway: 26 against 25.) Answers a booking to mark answered,
 * or how long to wait before asking again.
 */
export async function bookGatewayRequest(
  database: Database,
  messages: number,
  rate: number,
  claimMs: number,
): Promise<{ booking: number; waitMs: 0 } | { booking: null; waitMs: number }> {
  return database.db.transaction(async (tx) => {
    await q.lockSendRate(tx);
    // Requests answered over a second ago no longer matter; one never answered (its dispatcher
    // died) is let go once its claim has run out.
    await q.forgetPastRequests(tx, claimMs);
    const held = await q.heldRequests(tx);
    let total = held.reduce((n, b) => n + b.messages, 0);
    if (total + messages <= rate) {
      return { booking: await q.bookRequest(tx, messages), waitMs: 0 as const };
    }
    // Room comes when enough answered requests turn a second old; while requests in flight are
    // in the way, their answers are awaited (asked again shortly).
    for (const b of held) {
      if (b.free_in_ms === null) break;
      total -= b.messages;
      if (total + messages <= rate) return { booking: null, waitMs: Math.max(1, Math.ceil(Number(b.free_in_ms))) };
    }
    return { booking: null, waitMs: 50 };
  });
}

/** The gateway answered the request (or failed): from now on it holds its messages for one second. */
export async function markGatewayAnswered(database: Database, booking: number): Promise<void> {
  await q.markRequestAnswered(database, booking);
}

/** Waits until the batch may leave under the shared rate; answers its booking. */
async function waitForGatewayRoom(database: Database, messages: number, rate: number, claimMs: number): Promise<number> {
  for (;;) {
    const booked = await bookGatewayRequest(database, messages, rate, claimMs);
    if (booked.booking !== null) return booked.booking;
    await new Promise((resolve) => setTimeout(resolve, booked.waitMs));
  }
}

async function recordOutcomes(
  database: Database,
  token: string,
  batch: q.HandedSms[],
  outcomes: SendOutcome[],
  o: Required<Omit<DispatchOptions, 'signal'>>,
  report: DispatchReport,
): Promise<void> {
  const attemptsOf = new Map(batch.map((sms) => [sms.id, sms.attempts]));
  const queuedAt = new Map(batch.map((sms) => [sms.id, sms.createdAt.getTime()]));
  const now = o.now().getTime();
  const columns: q.OutcomeColumns = {
    id: [],
    status: [],
    providerId: [],
    providerStatus: [],
    cost: [],
    parts: [],
    lastError: [],
    failure: [],
    cause: [],
    retryInSeconds: [],
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
    } else if ((outcome as { again?: boolean }).again && waited < o.retryForMs) {
      // refused before acceptance, another provider may take it now (decision 062)
      report.retried += 1;
      status = 'queued';
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
  await q.recordBatchOutcomes(database, token, columns, { intents: SECRET_SMS_INTENTS, storedTexts: SECRET_SMS_STORED_TEXTS });
  // One announcement per status of the batch, not one per message: a blast is 100,000 messages.
  const counts = new Map<string, number>();
  for (const status of columns.status) counts.set(status, (counts.get(status) ?? 0) + 1);
  for (const [status, count] of counts) await announce(database.db, { type: 'sms.status', status, count });
}
