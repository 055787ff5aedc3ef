import { dayRangeOf } from '../../db/list.ts';
import { timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import type { SQL } from 'drizzle-orm';
import {
  CUSTOMER_LANGUAGE_LABELS,
  normaliseKenyanPhone,
  SMS_NOT_RESENDABLE_INTENTS,
  SMS_RESENDABLE_STATUSES,
  SmsDeliveryReport,
  secretResendRefusal,
  smsResendTexts,
  type CustomerLanguage,
  type PageQuery,
  type SmsLogQuery,
  type SmsMessageDetail,
  refusalTexts,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import { queueSms } from './outbox.ts';
import { spareExcludedSql } from './queries/outbox.ts';
import { setLanguage } from './languages.ts';
import type { SmsBalance, SmsGateway } from '../../integrations/sms/gateway.ts';
import * as q from './queries/messages.ts';
import { liveMessageSince as liveMessageSinceQuery } from './queries/outbox.ts';
import * as consentQ from './queries/consent.ts';
import * as optOutQ from './queries/opt-outs.ts';
import { announce } from '../events/service.ts';

// The sms module's surface for other modules (they import nothing else from it).
export { consentState, hasConsent, isErasedHash, isErasedPhone, isSomeHashErased, recordConsent } from './consent.ts';
export { isOptedOut, optIn, optOut, optOutState } from './opt-outs.ts';
export { dispatchQueuedSms, queueSms, queueSmsFanout, queueSmsInTheirLanguage, ridingSms, ridingSmsInTheirLanguage, smsInOrderRider } from './outbox.ts';
export type { RidingSms, SmsToQueue } from './outbox.ts';
export { pullDeliveryReports, recordAdvantaReport } from './provider-reports.ts';
export { checkProviderHealth, providerCircuits, smsProvidersOf, type SmsProviders } from './circuit.ts';
export { providerStates } from './providers.ts';
export { smsBacklog } from './backlog.ts';
export { promotionalWindow, windowAt, withOptOutText } from './promotional.ts';
export { chosenLanguage, forgetLanguage, languageOf, setLanguage, type LanguageSource } from './languages.ts';
export { customerTemplate, customerText, customerTextFor, promotionalText, promotionalTextFor } from './customer-texts.ts';

/**
 * Who may be written to, as SQL conditions on a phone expression, for other modules' recipient
 * queries (the tips fan-out, a broadcast's counts): the same conditions the outbox applies.
 */
export function consentedSql(phone: SQL): SQL {
  return consentQ.consentedSql(phone);
}

export function erasedSql(phone: SQL): SQL {
  return consentQ.erasedSql(phone);
}

/** SQL true when a promotional fan-out leaves this phone out for a self-exclusion (the outbox's rule, decision 059). */
export function promotionSparedSql(phone: SQL): SQL {
  return spareExcludedSql(phone, 'promotional', 'broadcast');
}

/** SQL true when one of these phone hashes is an erased person's (to read with another look-up). */
export function anyHashErasedSql(hashes: readonly string[]): SQL {
  return consentQ.anyHashErasedSql(hashes);
}

export function optedOutSql(phone: SQL, betCategoryId?: number | null, promotional = false): SQL {
  return optOutQ.optedOutSql(phone, betCategoryId, promotional);
}

/**
 * A staff member sets a person's language on their page (a client's or a subscriber's): stored with
 * the phone, audited under the person's own entity when it changed. Returns the page's notice.
 */
export async function setLanguageByStaff(
  deps: AppDeps,
  actor: Actor,
  person: { phone: string; name: string; action: 'client.language' | 'tips-subscriber.language'; entityId: number },
  language: CustomerLanguage,
  requestId: string,
): Promise<{ info: string }> {
  await deps.db.transaction(async (tx) => {
    const changed = await setLanguage(tx, { phone: person.phone, language, source: 'staff', by: actor.userId });
    if (!changed) return;
    await audit(tx, person.action, person.entityId, byStaff(actor, requestId), { after: { language } });
  });
  return { info: `Messages to ${person.name} will be written in ${CUSTOMER_LANGUAGE_LABELS[language]}.` };
}

const BALANCE_TTL_MS = 60_000;
const balances = new WeakMap<SmsGateway, { at: number; value: SmsBalance | null }>();

/**
 * The SMS gateway's balance for the dashboard, asked at most once a minute per process; null when
 * the gateway cannot tell.
 */
export async function currentSmsBalance(deps: AppDeps): Promise<SmsBalance | null> {
  const cached = balances.get(deps.sms);
  if (cached && Date.now() - cached.at < BALANCE_TTL_MS) return cached.value;
  const value = await deps.sms.balance().catch(() => null);
  balances.set(deps.sms, { at: Date.now(), value });
  return value;
}

const pageOf = (query: PageQuery): q.Page => ({ limit: query.perPage, offset: (query.page - 1) * query.perPage });

/** What staff type in the phone search (07.., +2547.., a part of it) as digits of the stored number. */
export function phoneSearchDigits(search: string): string | undefined {
  const full = normaliseKenyanPhone(search);
  if (full) return full;
  const digits = search.replace(/\D/g, '');
  if (!digits) return undefined;
  // 07.. and 01.. are the local form of 2547.. and 2541..; other digits are any part of the number.
  return /^0[17]/.test(digits) ? `254${digits.slice(1)}` : digits;
}

/** The SMS log: one page of messages, newest first, and how many there are of each status. */
export async function smsLogPage(db: Queryable, query: z.output<typeof SmsLogQuery>) {
  const phoneContains = phoneSearchDigits(query.search);
  return q.findLogMessages(
    db,
    { status: query.status, phoneContains, provider: query.provider, days: dayRangeOf(query) },
    pageOf(query),
    query.dir ?? 'desc',
  );
}

export async function smsMessageDetail(db: Queryable, id: number) {
  const message = await q.findMessage(db, id);
  if (!message) throw notFound(refusalTexts.messageNotFound);
  return { message };
}

/**
 * An admin sends a failed or unconfirmed message again: a NEW outbox row with the same recipient,
 * person, intent and text, linked to the original (`resent_from_id`), audited, then the dispatcher
 * is nudged after commit. The original is locked, so two clicks at once queue one message: while an
 * earlier resend of it is not failed (queued, sending, sent, delivered or unconfirmed) it is a 409.
 * Its dedupe key is the original's plus `:resend:<n>`, so an SMS tip's resend still counts under its
 * tip version (`split_part(dedupe_key, ':', 2)`), and a retried request cannot queue it twice.
 * A temporary password or a sign-in code is never resent: its text is gone once sent (decision 005).
 */
export async function resendMessage(
  deps: AppDeps,
  actor: Actor,
  id: number,
  requestId: string,
): Promise<{ info: string; sms: SmsMessageDetail }> {
  const newId = await deps.db.transaction(async (tx) => {
    const original = await q.lockMessage(tx, id);
    if (!original) throw notFound(refusalTexts.messageNotFound);
    if (SMS_NOT_RESENDABLE_INTENTS.includes(original.intent)) {
      throw conflict(secretResendRefusal(original.intent), 'temporary_password');
    }
    if (!(SMS_RESENDABLE_STATUSES as readonly string[]).includes(original.status)) {
      throw conflict(smsResendTexts.notResendable, 'not_resendable');
    }
    const resends = await q.resendsOf(tx, original.id);
    if (resends.some((r) => r.status !== 'failed')) throw conflict(smsResendTexts.alreadyResent, 'already_resent');
    const queued = await queueSms(tx, {
      intent: original.intent,
      dedupeKey: `${original.dedupeKey}:resend:${resends.length + 1}`,
      to: original.recipient,
      body: original.body,
      createdBy: actor.userId,
      clientId: original.clientId,
      subscriberId: original.subscriberId,
      resentFromId: original.id,
      smsClass: original.smsClass,
    });
    if (queued === null) throw conflict(smsResendTexts.alreadyResent, 'already_resent');
    await audit(tx, 'sms.resend', original.id, byStaff(actor, requestId), {
      before: { status: original.status, failure_reason: original.failureReason, resends: resends.map((r) => r.id) },
      after: { resent_as_id: queued, status: 'queued' },
    });
    return queued;
  });
  await deps.jobs.nudge(QUEUES.smsDispatch);
  const sms = await q.findMessage(deps.db, newId);
  return { info: smsResendTexts.queued, sms: sms! };
}


/** One person's messages (a client's or subscriber's page): the owning module has found the person, in scope. */
export async function personMessages(
  db: Queryable,
  person: { clientId: number; phone: string } | { subscriberId: number; phone: string },
  query: PageQuery,
) {
  const page = await q.findMessages(db, { person }, pageOf(query));
  return { total_records: page.total, messages: page.messages };
}

/** The webhook's secret path segment, compared in constant time. */
export function isWebhookSecret(deps: AppDeps, given: string): boolean {
  const expected = Buffer.from(deps.config.webhookSecret);
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Africa's Talking's delivery statuses (decision 013): Success is delivered; Sent, Submitted and
 * Buffered are on the way; every other status is final and a failure: Failed and Rejected (the
 * documented ones) and those seen from operators (AbsentSubscriber, Expired, ...). An unknown word
 * is never left looking sent.
 */
const IN_PROGRESS_STATUSES = new Set(['sent', 'submitted', 'buffered', 'queued', 'processed']);
export function outcomeOf(status: string): q.DeliveryOutcome {
  const word = status.trim().toLowerCase();
  if (word === 'success' || word === 'delivered') return 'delivered';
  if (IN_PROGRESS_STATUSES.has(word)) return 'in-progress';
  return 'failed';
}

/**
 * Records a delivery report. Returns whether the message is known; an unknown id is acknowledged
 * all the same (the gateway would otherwise keep retrying it).
 */
export async function recordDeliveryReport(db: Queryable, body: unknown): Promise<{ known: boolean; providerMessageId: string }> {
  // A bad report is a ZodError, which the error handler answers as a 422 naming the fields.
  const report = SmsDeliveryReport.parse(body);
  const known = await q.applyDeliveryReport(db, {
    providerMessageId: report.id,
    outcome: outcomeOf(report.status),
    providerStatus: report.status,
    networkCode: report.networkCode || null,
    failureReason: report.failureReason || null,
  });
  const outcome = outcomeOf(report.status);
  if (known && outcome !== 'in-progress') await announce(db, { type: 'sms.status', status: outcome, count: 1 });
  return { known, providerMessageId: report.id };
}

/**
 * The newest message to this phone under a dedupe prefix since a time that has not failed: a
 * sender that allows one live message a day (an invoice's link, decision 087) asks it first.
 */
export function liveMessageSince(db: Queryable, o: { to: string; intent: string; dedupePrefix: string; since: Date }) {
  return liveMessageSinceQuery(db, o);
}
