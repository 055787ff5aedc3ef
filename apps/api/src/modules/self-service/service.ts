import {
  InboundSms,
  normaliseKenyanPhone,
  SmsOptOutNotice,
  smsSelfServiceTexts,
  type ExclusionPeriodValue,
  type OptOutState,
  type PageQuery,
  refusalTexts,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { ERASED_PHONE_PREFIX } from '../../db/schema/index.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, type AuditBy } from '../audit/service.ts';
import { requireClientFacts } from '../clients/service.ts';
import { declareAdult } from '../compliance/service.ts';
import { EXCLUSION_KEYWORDS, excludeBySms, periodOfKeyword } from '../exclusions/service.ts';
import { afterAgeReplySales, categoryPricesText, requestCheapestSmsPackage, sellPaymentsHeldForAge, type AgeReplySales } from '../mpesa/service.ts';
import { LANGUAGE_NAMES, type Language } from '../../customer-texts/catalogue.ts';
import type { TextValues } from '../../customer-texts/format.ts';
import { customerText, isErasedPhone, languageOf, optIn, optOut, optOutState, phoneSearchDigits, queueSms, recordConsent, setLanguage } from '../sms/service.ts';
import { subscriberById, subscribePayer } from '../tips-subscribers/service.ts';
import { pauseSubscription } from '../pauses/service.ts';
import * as q from './queries.ts';

export const KEYWORD_REPLY_INTENT = 'sms.keyword-reply';

/** What a text asks for: keywords are case-insensitive, surrounding spaces ignored. */
type Understood =
  | { keyword: 'STOP' }
  | { keyword: 'STOP <code>'; category: { id: number; code: string; name: string } }
  | { keyword: 'START' }
  | { keyword: 'YES' }
  | { keyword: 'CODE'; category: { id: number; code: string; name: string } }
  | { keyword: 'LANGUAGE'; language: Language }
  | { keyword: 'EXCLUDE'; word: string; period: ExclusionPeriodValue | null }
  | { keyword: '18' }
  | { keyword: 'PAUSE'; word: string; days: number }
  | { keyword: 'HELP' };

/** The words that pause a subscription by SMS, then the days: PAUSE 3 or SITISHA 3 (decision 090). */
const PAUSE_KEYWORDS = ['PAUSE', 'SITISHA'];

/** The words that choose a language by SMS (as a punter would type them). */
const LANGUAGE_KEYWORDS: Record<string, Language> = { KISWAHILI: 'sw', SWAHILI: 'sw', SW: 'sw', ENGLISH: 'en', EN: 'en' };

async function understand(db: Queryable, text: string): Promise<Understood> {
  const words = text.trim().toUpperCase().split(/\s+/).filter(Boolean);
  if (words[0] === 'STOP' && words.length === 1) return { keyword: 'STOP' };
  if (words[0] === 'STOP' && words.length === 2) {
    const category = await q.categoryByCode(db, words[1]!);
    // An unknown code after STOP still means stop: never keep texting someone who asked us not to.
    return category ? { keyword: 'STOP <code>', category } : { keyword: 'STOP' };
  }
  // EXCLUDE or JIEPUSHE, then 30, 90, 180 or FOREVER/MILELE/DAIMA (decision 059).
  if ((EXCLUSION_KEYWORDS as readonly string[]).includes(words[0]!)) return { keyword: 'EXCLUDE', word: words[0]!, period: periodOfKeyword(words[1]) };
  // 18: the 18+ declaration a paybill receipt asked for (decision 066).
  if (words.length === 1 && words[0] === '18') return { keyword: '18' };
  // No number (or a wrong one) is a pause of 0 days: refused with the days allowed.
  if (PAUSE_KEYWORDS.includes(words[0]!) && words.length <= 2) return { keyword: 'PAUSE', word: words[0]!, days: /^\d{1,3}$/.test(words[1] ?? '') ? Number(words[1]) : 0 };
  if (words.length === 1 && words[0] === 'START') return { keyword: 'START' };
  if (words.length === 1 && words[0] === 'YES') return { keyword: 'YES' };
  if (words.length === 1 && Object.hasOwn(LANGUAGE_KEYWORDS, words[0]!)) return { keyword: 'LANGUAGE', language: LANGUAGE_KEYWORDS[words[0]!]! };
  if (words.length === 1) {
    const category = await q.categoryByCode(db, words[0]!);
    if (category) return { keyword: 'CODE', category };
  }
  return { keyword: 'HELP' };
}

function keywordLabel(u: Understood): string {
  if (u.keyword === 'CODE') return u.category.code;
  if (u.keyword === 'STOP <code>') return `STOP ${u.category.code}`;
  if (u.keyword === 'LANGUAGE') return u.language === 'sw' ? 'KISWAHILI' : 'ENGLISH';
  if (u.keyword === 'EXCLUDE') return u.word;
  if (u.keyword === 'PAUSE') return `${u.word} ${u.days}`;
  return u.keyword;
}

/**
 * An incoming message: stored once by the gateway's id and linked to the subscriber or client with
 * that phone; its keyword is acted on and answered (a transactional reply through the outbox) in
 * the same transaction. A category code also asks M-Pesa for an STK push of the category's
 * cheapest SMS package when M-Pesa is configured (after commit: it calls the internet).
 */
export async function receiveInboundSms(deps: AppDeps, raw: unknown, requestId: string): Promise<void> {
  const sms = InboundSms.parse(raw);
  const phone = normaliseKenyanPhone(sms.from) ?? sms.from.replace(/^\+/, '');
  const stk = await deps.db.transaction(async (tx) => {
    // A text from an erased person's phone is kept only as "something came" (the gateway's id, so
    // a retry is still answered once): no phone, no text, no keyword acted on, no reply.
    if (await isErasedPhone(tx, phone)) {
      const id = await q.insertInbound(tx, {
        providerId: sms.id,
        phone: ERASED_PHONE_PREFIX,
        toCode: sms.to ?? null,
        text: '[erased]',
        linkId: null,
        networkCode: sms.networkCode ?? null,
        providerDate: sms.date ?? null,
        subscriberId: null,
        clientId: null,
        keyword: '',
        action: "Ignored: the phone's owner was erased",
      });
      return id === null ? null : { id, action: '', wantsStk: null, subscriberId: null, ignored: true, sales: null, pauseDays: null };
    }
    const understood = await understand(tx, sms.text);
    let people = await q.peopleByPhone(tx, phone);
    const id = await q.insertInbound(tx, {
      providerId: sms.id,
      phone,
      toCode: sms.to ?? null,
      text: sms.text.slice(0, 2000),
      linkId: sms.linkId ?? null,
      networkCode: sms.networkCode ?? null,
      providerDate: sms.date ?? null,
      subscriberId: people.subscriberId,
      clientId: people.clientId,
      keyword: keywordLabel(understood),
      action: '',
    });
    if (id === null) return null; // the gateway sent it again: answered the first time

    // A language keyword is answered in the language just chosen; every other reply in the phone's.
    const language = understood.keyword === 'LANGUAGE' ? understood.language : await languageOf(tx, phone);
    const say = (textId: Parameters<typeof customerText>[1], values?: TextValues) => customerText(tx, textId, language, values);
    let reply: string | null;
    let action: string;
    let wantsStk: { betCategoryId: number } | null = null;
    let sales: AgeReplySales | null = null;
    let pauseDays: number | null = null;
    if (understood.keyword === 'STOP') {
      await optOut(tx, { phone, scope: 'all', source: 'keyword', reason: `Texted "${sms.text.trim().slice(0, 100)}"` });
      await recordConsent(tx, { phone, given: false, channel: 'sms', wording: sms.text.trim().slice(0, 200), note: 'Texted STOP' });
      reply = await say('sms_stop_reply');
      action = 'Opted out of all tips and offers; confirmation sent';
    } else if (understood.keyword === 'STOP <code>') {
      await optOut(tx, { phone, scope: { betCategoryId: understood.category.id }, source: 'keyword', reason: `Texted "STOP ${understood.category.code}"` });
      reply = await say('sms_stop_category_reply', { category: understood.category.name });
      action = `Opted out of ${understood.category.code} tips; confirmation sent`;
    } else if (understood.keyword === 'START') {
      const cleared = await optIn(tx, { phone, source: 'keyword', reason: 'Texted START' });
      reply = await say('sms_start_reply');
      action = cleared.length > 0 ? 'Opted back in; confirmation sent' : 'Was not opted out; confirmation sent';
    } else if (understood.keyword === 'YES') {
      await recordConsent(tx, {
        phone,
        given: true,
        channel: 'sms',
        wording: await say('marketing_consent_wording'),
        note: `Texted "${sms.text.trim().slice(0, 100)}"`,
      });
      reply = await say('sms_yes_reply');
      action = 'Marketing consent given; confirmation sent';
    } else if (understood.keyword === 'CODE') {
      reply = (await categoryPricesText(tx, understood.category.id, language)) ?? (await say('sms_help_reply'));
      action = `${understood.category.code} prices sent`;
      if (deps.config.mpesa.api !== null && normaliseKenyanPhone(phone)) {
        if (people.subscriberId === null) {
          const subscriberId = await subscribePayer(tx, { phone, name: null, paymentId: null, requestId });
          people = { ...people, subscriberId };
          await q.linkInboundSubscriber(tx, id, subscriberId);
        }
        wantsStk = { betCategoryId: understood.category.id };
      }
    } else if (understood.keyword === 'LANGUAGE') {
      const changed = await setLanguage(tx, { phone, language, source: 'sms', by: null });
      reply = await say('sms_language_reply');
      action = `${changed ? 'Language set to' : 'Language kept:'} ${LANGUAGE_NAMES[language]}; confirmation sent`;
    } else if (understood.keyword === '18') {
      // The declaration, then the payments held for it: sold (their receipts say so), or kept for a refund when late.
      await declareAdult(tx, phone, 'sms');
      sales = await sellPaymentsHeldForAge(tx, phone, requestId);
      const late = sales.late.filter(Boolean).join(', ');
      reply = late
        ? await say('sms.age_reply_late', { receipt: late, hours: sales.graceHours })
        : sales.sold.length > 0
          ? null
          : await say('sms.age_declared');
      action = `Declared 18 or older; ${sales.sold.length} held payment(s) sold${sales.late.length > 0 ? `, ${sales.late.length} too late (kept for a refund)` : ''}`;
    } else if (understood.keyword === 'PAUSE') {
      // The pause makes its own transaction and SMS once this one is kept (`pauseBySms`).
      pauseDays = understood.days;
      reply = null;
      action = `Asked to pause for ${understood.days} day(s)`;
    } else if (understood.keyword === 'EXCLUDE') {
      // The exclusion's own SMS confirms it; a text without a period is told how.
      ({ reply, action } = await excludeBySms(tx, phone, understood.period));
    } else {
      reply = await say('sms_help_reply');
      action = 'Kept for staff; help reply sent';
    }
    if (reply !== null) await queueSms(tx, {
      intent: KEYWORD_REPLY_INTENT,
      dedupeKey: `${KEYWORD_REPLY_INTENT}:${id}`,
      to: phone,
      body: reply,
      createdBy: null,
      subscriberId: people.subscriberId,
      clientId: people.subscriberId === null ? people.clientId : null,
    });
    await q.setInboundAction(tx, id, action);
    return { id, action, wantsStk, subscriberId: people.subscriberId, ignored: false, sales, pauseDays };
  });
  if (!stk || stk.ignored) return;
  if (stk.pauseDays !== null) await pauseBySms(deps, { inboundId: stk.id, phone, days: stk.pauseDays, action: stk.action, subscriberId: stk.subscriberId, requestId });
  await deps.jobs.nudge(QUEUES.smsDispatch);
  if (stk.sales) await afterAgeReplySales(deps, stk.sales);
  if (stk.wantsStk && stk.subscriberId !== null) {
    const outcome = await requestCheapestSmsPackage(deps, {
      subscriberId: stk.subscriberId,
      phone,
      betCategoryId: stk.wantsStk.betCategoryId,
      requestId,
    }).then(
      (requestRowId) => (requestRowId === null ? 'no SMS package to request' : 'M-Pesa payment request sent'),
      (error: unknown) => `M-Pesa payment request failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    await q.setInboundAction(deps.db, stk.id, `${stk.action}; ${outcome}`);
  }
}

/**
 * PAUSE <days> by SMS: the subscriber's running weekly or monthly subscription that ends soonest is
 * paused (its own SMS confirms it); a refusal is the reply, in the phone's language.
 */
async function pauseBySms(
  deps: AppDeps,
  p: { inboundId: number; phone: string; days: number; action: string; subscriberId: number | null; requestId: string },
): Promise<void> {
  let outcome: string;
  try {
    await pauseSubscription(deps, { phone: p.phone, subscriptionId: null, days: p.days, via: 'sms', requestId: p.requestId });
    outcome = 'paused; confirmation sent';
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const refusal = error.info ?? '';
    await queueSms(deps.db, {
      intent: KEYWORD_REPLY_INTENT,
      dedupeKey: `${KEYWORD_REPLY_INTENT}:${p.inboundId}`,
      to: p.phone,
      body: refusal,
      createdBy: null,
      subscriberId: p.subscriberId,
    });
    await deps.jobs.nudge(QUEUES.smsDispatch);
    outcome = `refused: ${refusal}`;
  }
  await q.setInboundAction(deps.db, p.inboundId, `${p.action}; ${outcome}`);
}

/** Africa's Talking says a phone opted out of our sender id. */
export async function receiveOptOutNotice(deps: AppDeps, raw: unknown): Promise<void> {
  const notice = SmsOptOutNotice.parse(raw);
  const phone = normaliseKenyanPhone(notice.phoneNumber) ?? notice.phoneNumber.replace(/^\+/, '');
  await optOut(deps.db, {
    phone,
    scope: 'all',
    source: 'provider',
    reason: notice.senderId ? `Opted out of sender ${notice.senderId}` : null,
  });
}

const pageOf = (query: PageQuery) => ({ limit: query.perPage, offset: (query.page - 1) * query.perPage });

export async function inbox(db: Queryable, query: PageQuery & { search: string }) {
  const page = await q.inboxPage(db, { phoneContains: phoneSearchDigits(query.search) }, pageOf(query));
  return { total_records: page.total, messages: page.messages };
}

async function stateOf(db: Queryable, phone: string): Promise<OptOutState> {
  return { phone, ...(await optOutState(db, phone)) };
}

export async function subscriberOptOutState(db: Queryable, subscriberId: number) {
  const subscriber = await subscriberById(db, subscriberId);
  return { opt_out: await stateOf(db, subscriber.phone) };
}

export async function clientOptOutState(db: Queryable, actor: Actor, clientId: number) {
  const client = await requireClientFacts(db, actor, clientId);
  return { opt_out: await stateOf(db, client.phone) };
}

async function phoneOfPerson(db: Queryable, actor: Actor, p: { client_id?: number | undefined; subscriber_id?: number | undefined }) {
  if (p.client_id !== undefined) return (await requireClientFacts(db, actor, p.client_id)).phone;
  return (await subscriberById(db, p.subscriber_id!)).phone;
}

type PersonOptOutChange = { client_id?: number | undefined; subscriber_id?: number | undefined; reason: string };

interface OptOutChange {
  action: 'sms.opt-out' | 'sms.opt-out.clear';
  before: unknown;
  after: unknown;
}

/** Audits a change to a phone's opt-out; `actorUserId` is null when the phone's owner made it. */
async function auditOptOutChange(tx: Queryable, phone: string, by: AuditBy, change: OptOutChange) {
  await audit(tx, change.action, phone, by, change);
}

/**
 * An admin's change to a person's opt-out, made on the person's phone in one transaction and
 * audited when `change` says what it changed; answered with `info` and the state it leaves.
 */
async function changeOptOutByAdmin(
  deps: AppDeps,
  actor: Actor,
  body: PersonOptOutChange,
  requestId: string,
  info: string,
  change: (tx: Queryable, phone: string) => Promise<OptOutChange | null>,
) {
  const phone = await phoneOfPerson(deps.db, actor, body);
  await deps.db.transaction(async (tx) => {
    const changed = await change(tx, phone);
    if (changed) await auditOptOutChange(tx, phone, { actorUserId: actor.userId, requestId }, changed);
  });
  return { info, opt_out: await stateOf(deps.db, phone) };
}

/** An admin opts a person out (audited). */
export async function optOutByAdmin(deps: AppDeps, actor: Actor, body: PersonOptOutChange, requestId: string) {
  return changeOptOutByAdmin(deps, actor, body, requestId, smsSelfServiceTexts.optedOut, async (tx, phone) => {
    const reason = body.reason || null;
    const created = await optOut(tx, { phone, scope: 'all', source: 'admin', reason, actorUserId: actor.userId });
    return created ? { action: 'sms.opt-out', before: { opted_out: false }, after: { opted_out: true, reason } } : null;
  });
}

/** An admin clears a person's opt-out; only with a reason, audited. */
export async function clearOptOutByAdmin(deps: AppDeps, actor: Actor, body: PersonOptOutChange, requestId: string) {
  return changeOptOutByAdmin(deps, actor, body, requestId, smsSelfServiceTexts.optOutCleared, async (tx, phone) => {
    const cleared = await optIn(tx, { phone, source: 'admin', reason: body.reason, actorUserId: actor.userId });
    if (cleared.length === 0) throw fieldError('reason', refusalTexts.notOptedOut);
    return { action: 'sms.opt-out.clear', before: { scopes: cleared }, after: { scopes: [], reason: body.reason } };
  });
}

/**
 * A punter stops or restarts their own SMS from a menu of ours (USSD): the rules of the STOP and
 * START keywords (STOP: everything but transactional messages; START clears every scope), audited
 * with no staff user. Returns whether anything changed. Call it inside the caller's transaction.
 */
export async function setOwnSmsChoice(
  tx: Queryable,
  c: { phone: string; receive: boolean; source: 'ussd'; requestId: string | null },
): Promise<boolean> {
  const owner = { actorUserId: null, requestId: c.requestId, name: `the phone's owner (${c.source})` };
  if (!c.receive) {
    const created = await optOut(tx, { phone: c.phone, scope: 'all', source: c.source, reason: 'Chose Stop SMS' });
    if (created) {
      await auditOptOutChange(tx, c.phone, owner, { action: 'sms.opt-out', before: { opted_out: false }, after: { opted_out: true, by: owner.name } });
    }
    return created;
  }
  const cleared = await optIn(tx, { phone: c.phone, source: c.source, reason: 'Chose Start SMS' });
  if (cleared.length > 0) {
    await auditOptOutChange(tx, c.phone, owner, { action: 'sms.opt-out.clear', before: { scopes: cleared }, after: { scopes: [], by: owner.name } });
  }
  return cleared.length > 0;
}
