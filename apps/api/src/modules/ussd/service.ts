import { compactKes, formatDate, localPhone, nairobiDayOf, normaliseKenyanPhone, UssdSessionEnd, UssdStep } from '@betdesk/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { requestPackagePayment } from '../mpesa/service.ts';
import { setOwnSmsChoice } from '../self-service/service.ts';
import { getSetting } from '../settings/service.ts';
import { erasedPhoneTexts } from '../privacy/service.ts';
import { hasConsent, isErasedPhone, isOptedOut, queueSms, recordConsent } from '../sms/service.ts';
import { audit } from '../audit/service.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { categoriesForSale, packageForSale, packagesForSale, type PackageForSale } from '../tips-prices/service.ts';
import { resendTodaysTips } from '../tips-sms/service.ts';
import { subscribePayer } from '../tips-subscribers/service.ts';
import { OFFERS_STOP_QUESTION, offersQuestion, short, SCREEN_MAX, walk, type MenuAction, type MenuFacts, type Screen } from './menu.ts';
import * as q from './queries.ts';

export const PAY_INSTRUCTIONS_INTENT = 'ussd.pay-instructions';

/** A queued purchase not pushed within this long is dropped: the punter has long put the phone away. */
const QUEUED_PURCHASE_TTL_MS = 5 * 60_000;

const mediumName = (medium: 'sms' | 'web') => (medium === 'sms' ? 'SMS' : 'Web');
const packageName = (p: PackageForSale) => `${p.category} ${mediumName(p.medium)}, ${p.durationDays} days`;

/** The menu's reads for one phone, each made once per request. */
function factsFor(db: Queryable, phone: string): MenuFacts {
  const once = <T>(load: () => Promise<T>) => {
    let value: Promise<T> | undefined;
    return () => (value ??= load());
  };
  const subscriberId = once(() => q.subscriberIdByPhone(db, phone));
  const packages = new Map<number, Promise<PackageForSale[]>>();
  return {
    welcome: once(() => getSetting(db, 'ussd_welcome')),
    optedOut: once(() => isOptedOut(db, phone)),
    categories: once(async () => (await categoriesForSale(db)).map((c) => ({ id: c.id, label: short(c.name) }))),
    async packages(categoryId) {
      if (!packages.has(categoryId)) packages.set(categoryId, packagesForSale(db, categoryId));
      return (await packages.get(categoryId)!).map((p) => ({
        id: p.id,
        label: `${mediumName(p.medium)} ${p.durationDays} days ${compactKes(p.priceCents)}`,
      }));
    },
    async packageQuestion(packageId) {
      const p = await packageForSale(db, packageId);
      if (!p) return null;
      return `${short(p.category)} ${mediumName(p.medium)}, ${p.durationDays} days: ${compactKes(p.priceCents)}.\nPay by M-Pesa from ${localPhone(phone)}?`;
    },
    consented: once(() => hasConsent(db, phone)),
    consentWording: once(() => getSetting(db, 'marketing_consent_wording')),
    subscriptions: once(async () => {
      const id = await subscriberId();
      if (id === null) return [];
      return (await q.runningSubscriptions(db, id)).map(
        (s) => `${short(s.category, 20)} ${mediumName(s.medium)} to ${formatDate(s.expires_at)}`,
      );
    }),
  };
}

/** Never more than one screen, whatever a setting or a name holds. */
const fit = (screen: Screen): Screen => (screen.length <= SCREEN_MAX ? screen : (screen.slice(0, SCREEN_MAX) as Screen));

/**
 * One step of a USSD session: the screen the typed path leads to, or, when its last input confirms
 * something, that thing done and the session ended. Only the database is touched (no external
 * call), so the answer comes well within the network's patience; the STK push is the job's.
 */
export async function answerUssd(deps: AppDeps, raw: unknown, requestId: string): Promise<Screen> {
  const session = UssdStep.parse(raw);
  const phone = normaliseKenyanPhone(session.phoneNumber);
  if (!phone) return 'END This service is for Kenyan mobile numbers only.';
  // An erased person's phone records nothing again: no purchase, consent or subscriber.
  if (await isErasedPhone(deps.db, phone)) return erasedPhoneTexts.ussdRefused.en;
  const outcome = await walk(session.text, factsFor(deps.db, phone));
  if ('screen' in outcome) return fit(outcome.screen);
  return fit(await act(deps, outcome.action, { phone, sessionId: session.sessionId, requestId }));
}

async function act(deps: AppDeps, action: MenuAction, s: { phone: string; sessionId: string; requestId: string }): Promise<Screen> {
  switch (action.do) {
    case 'buy':
      return buy(deps, action.packageId, s);
    case 'todays-tips':
      return todaysTips(deps, s.phone);
    case 'sms': {
      await deps.db.transaction((tx) =>
        setOwnSmsChoice(tx, { phone: s.phone, receive: action.receive, source: 'ussd', requestId: s.requestId }),
      );
      return action.receive
        ? 'END Done: you will receive our tips and offers by SMS again.'
        : 'END Done: no more tips or offers by SMS. Payment receipts still come. Dial again to start SMS.';
    }
    case 'offers':
      await setOffersConsent(deps.db, action.given, s);
      return action.given
        ? 'END Thank you: you will receive our offers by SMS. Dial again or send STOP to stop them.'
        : 'END Done: no more offers by SMS. Tips you pay for still come.';
  }
}

/**
 * The person gives or withdraws marketing consent on the USSD menu: their own act (channel ussd),
 * recorded with the wording the screen showed them, and audited.
 */
async function setOffersConsent(db: AppDeps['db'], given: boolean, s: { phone: string; requestId: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const wording = given ? offersQuestion(await getSetting(tx, 'marketing_consent_wording')) : OFFERS_STOP_QUESTION;
    const changed = await recordConsent(tx, { phone: s.phone, given, channel: 'ussd', wording, note: 'Chosen on the USSD menu' });
    if (!changed) return;
    await audit(tx, {
      actorUserId: null,
      action: given ? 'consent.given' : 'consent.withdrawn',
      entity: 'marketing_consent',
      entityId: sha256Hex(s.phone).slice(0, 16),
      after: { channel: 'ussd', by: 'the person (USSD)' },
      requestId: s.requestId,
    });
  });
}

/** The paybill instructions of a package by SMS (transactional: the punter asked for them). */
async function queuePayInstructions(tx: Queryable, deps: AppDeps, p: PackageForSale, phone: string, key: string): Promise<void> {
  const template = await getSetting(tx, 'ussd_pay_instructions_sms');
  const paybill = deps.config.mpesa.shortcode;
  const values: Record<string, string> = {
    package: packageName(p),
    amount: compactKes(p.priceCents),
    code: p.code,
    ...(paybill ? { paybill } : {}),
  };
  // Without a paybill number the clause that would give it is left out ("…Pay Bill, account
  // number D2…"), rather than reading "business number our paybill".
  const worded = paybill ? template : template.replace(/,?[^,.:;>]*\{paybill\}/g, '');
  const body = Object.entries(values).reduce((text, [k, v]) => text.replaceAll(`{${k}}`, v), worded);
  await queueSms(tx, {
    intent: PAY_INSTRUCTIONS_INTENT,
    dedupeKey: `${PAY_INSTRUCTIONS_INTENT}:${key}`,
    to: phone,
    body,
    subscriberId: await q.subscriberIdByPhone(tx, phone),
    createdBy: null,
  });
}

/**
 * A confirmed purchase. With M-Pesa configured it is queued for the job, which sends the STK push
 * once the session has ended (the PIN prompt is itself a USSD push and would clash with an open
 * session); without, the paybill instructions go by SMS. Once per session either way.
 */
async function buy(deps: AppDeps, packageId: number, s: { phone: string; sessionId: string }): Promise<Screen> {
  const stk = deps.config.mpesa.api !== null;
  const pkg = await deps.db.transaction(async (tx) => {
    const found = await packageForSale(tx, packageId);
    if (!found) return null;
    const id = await q.insertPurchase(tx, { sessionId: s.sessionId, phone: s.phone, packageId, status: stk ? 'queued' : 'instructed' });
    if (id !== null && !stk) await queuePayInstructions(tx, deps, found, s.phone, `session:${s.sessionId}`);
    return found;
  });
  if (!pkg) return 'END This package is no longer on sale.';
  if (stk) {
    await deps.jobs.nudge(QUEUES.ussdPurchases);
    return `END Enter your M-Pesa PIN when asked to pay ${compactKes(pkg.priceCents)} for ${short(pkg.category)} ${mediumName(pkg.medium)}.`;
  }
  await deps.jobs.nudge(QUEUES.smsDispatch);
  return `END We are sending you an SMS with how to pay ${compactKes(pkg.priceCents)} by M-Pesa.`;
}

async function todaysTips(deps: AppDeps, phone: string): Promise<Screen> {
  const subscriberId = await q.subscriberIdByPhone(deps.db, phone);
  if (subscriberId === null) return 'END You have no running SMS tips. Choose 1 Buy tips to subscribe.';
  const r = await deps.db.transaction((tx) => resendTodaysTips(tx, { subscriberId, phone, day: nairobiDayOf(new Date()) }));
  if (r.queued.length > 0) await deps.jobs.nudge(QUEUES.smsDispatch);
  const parts = [
    r.queued.length > 0 ? `Today's ${r.queued.join(', ')} tips are on their way by SMS.` : '',
    r.alreadySent.length > 0 ? `${r.alreadySent.join(', ')}: already sent again today.` : '',
    r.notYet.length > 0 ? `${r.notYet.join(', ')}: no tips yet today; they come by SMS when ready.` : '',
  ].filter(Boolean);
  if (parts.length === 0) return 'END You have no running SMS tips. Choose 1 Buy tips to subscribe.';
  return `END ${parts.join('\n')}`;
}

/** Africa's Talking's end-of-session notification: acknowledged and logged (no phone number). */
export function receiveSessionEnd(raw: unknown, log: FastifyBaseLogger): void {
  const end = UssdSessionEnd.parse(raw);
  log.info(
    { ussd: { sessionId: end.sessionId, status: end.status, hops: end.hopsCount, ms: end.durationInMillis, error: end.errorMessage } },
    'USSD session ended',
  );
}

/**
 * The job: queued purchases become STK pushes to the buyer (made a tips subscriber first, as a
 * texted code does). A push M-Pesa refuses leaves the paybill instructions by SMS instead.
 * Returns how many payment requests were sent.
 */
export async function sendQueuedUssdPurchases(deps: AppDeps): Promise<number> {
  await q.expireQueued(deps.db, new Date(Date.now() - QUEUED_PURCHASE_TTL_MS));
  let sent = 0;
  let texted = false;
  for (;;) {
    const claimed = await q.claimQueued(deps.db, 20);
    if (claimed.length === 0) break;
    for (const purchase of claimed) {
      const outcome = await pushFor(deps, purchase).catch((error: unknown) => ({
        stkRequestId: null,
        reason: error instanceof Error ? error.message : String(error),
      }));
      if (outcome.stkRequestId !== null) {
        await q.settlePurchase(deps.db, purchase.id, { status: 'requested', stkRequestId: outcome.stkRequestId });
        sent += 1;
        continue;
      }
      await deps.db.transaction(async (tx) => {
        await q.settlePurchase(tx, purchase.id, { status: 'failed', reason: outcome.reason });
        const pkg = await packageForSale(tx, purchase.packageId);
        if (pkg) await queuePayInstructions(tx, deps, pkg, purchase.phone, `purchase:${purchase.id}`);
      });
      texted = true;
    }
  }
  if (texted) await deps.jobs.nudge(QUEUES.smsDispatch);
  return sent;
}

async function pushFor(
  deps: AppDeps,
  purchase: { phone: string; packageId: number },
): Promise<{ stkRequestId: number | null; reason: string | null }> {
  const subscriberId = await deps.db.transaction((tx) =>
    subscribePayer(tx, { phone: purchase.phone, name: null, paymentId: null, requestId: null }),
  );
  const stkRequestId = await requestPackagePayment(deps, { subscriberId, phone: purchase.phone, packageId: purchase.packageId, requestId: null });
  return stkRequestId === null
    ? { stkRequestId: null, reason: 'M-Pesa is not configured, or the package is no longer on sale' }
    : { stkRequestId, reason: null };
}
