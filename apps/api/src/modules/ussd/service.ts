import { compactKes, localPhone, nairobiDayOf, normaliseKenyanPhone, priceForDays, UssdSessionEnd, UssdStep } from '@betdesk/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { requestPackagePayment } from '../mpesa/service.ts';
import { setOwnSmsChoice } from '../self-service/service.ts';
import { getSetting } from '../settings/service.ts';
import { customerTemplate, customerText, hasConsent, isErasedPhone, isOptedOut, languageOf, queueSms, recordConsent, setLanguage } from '../sms/service.ts';
import type { Language } from '../../customer-texts/catalogue.ts';
import { excludeByUssd, saleRefused } from '../exclusions/service.ts';
import { isRefusal, priceWithCode, type PromoPrice, type PromoRefusal } from '../promo-codes/service.ts';
import { customerDate, fill } from '../../customer-texts/format.ts';
import { fixedText } from '../../customer-texts/texts.ts';
import { audit } from '../audit/service.ts';
import { declareAdult, mustDeclareAge } from '../compliance/service.ts';
import { openForPause, pauseStanding, pauseSubscription } from '../pauses/service.ts';
import { AppError } from '../../http/errors.ts';
import { autoRenewView, stop as stopAutoRenew, turnOn as turnOnAutoRenew } from '../auto-renew/service.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { categoriesForSale, packageForSale, packagesForSale, type PackageForSale } from '../tips-prices/service.ts';
import { resendTodaysTips } from '../tips-sms/service.ts';
import { subscribePayer } from '../tips-subscribers/service.ts';
import { menuWords, offersQuestion, short, SCREEN_MAX, walk, type MenuAction, type MenuFacts, type MenuWords, type Screen } from './menu.ts';
import * as q from './queries.ts';

export const PAY_INSTRUCTIONS_INTENT = 'ussd.pay-instructions';

/** A queued purchase not pushed within this long is dropped: the punter has long put the phone away. */
const QUEUED_PURCHASE_TTL_MS = 5 * 60_000;

const mediumName = (medium: 'sms' | 'web') => (medium === 'sms' ? 'SMS' : 'Web');
const packageName = (p: PackageForSale, language: Language) =>
  fixedText('sms.package_name', language, { category: p.category, medium: mediumName(p.medium), days: p.durationDays });

/**
 * What a typed promo code asks for a package from a phone (decision 077), or why it cannot be used;
 * null when the package is no longer for sale.
 */
async function codePrice(db: Queryable, phone: string, packageId: number, code: string, days = 1): Promise<PromoPrice | PromoRefusal | null> {
  const pkg = await packageForSale(db, packageId);
  // A daily package's list price is the days asked at its day price (decision 095).
  return pkg ? priceWithCode(db, { codeText: code, packageId, listPriceCents: priceForDays(pkg, days), phone }) : null;
}

/** The menu's reads for one phone, each made once per request. */
function factsFor(deps: AppDeps, phone: string): MenuFacts {
  const db = deps.db;
  const once = <T>(load: () => Promise<T>) => {
    let value: Promise<T> | undefined;
    return () => (value ??= load());
  };
  const subscriberId = once(() => q.subscriberIdByPhone(db, phone));
  const language = once(() => languageOf(db, phone));
  const packages = new Map<number, Promise<PackageForSale[]>>();
  const promoPrices = new Map<string, Promise<{ price: string } | { refusal: string }>>();
  return {
    language,
    welcome: once(() => getSetting(db, 'ussd_welcome')),
    optedOut: once(() => isOptedOut(db, phone)),
    categories: once(async () => (await categoriesForSale(db)).map((c) => ({ id: c.id, label: short(c.name) }))),
    async packages(categoryId) {
      if (!packages.has(categoryId)) packages.set(categoryId, packagesForSale(db, categoryId));
      const lang = await language();
      return (await packages.get(categoryId)!).map((p) => {
        const values = { medium: mediumName(p.medium), days: p.durationDays, price: compactKes(p.priceCents) };
        return p.billing === 'daily'
          ? { id: p.id, label: fixedText('ussd.package_label_daily', lang, values), daily: true }
          : { id: p.id, label: fixedText('ussd.package_label', lang, values) };
      });
    },
    async packageOnSale(packageId, daysAsked) {
      const p = await packageForSale(db, packageId);
      if (!p) return null;
      const days = p.billing === 'daily' ? (daysAsked ?? 1) : p.durationDays;
      return {
        category: p.category,
        medium: mediumName(p.medium),
        days,
        price: compactKes(priceForDays(p, days)),
        dayPrice: compactKes(p.priceCents),
        phone: localPhone(phone),
      };
    },
    // A code needs the STK push: the paybill instructions by SMS ask the list price.
    takesPromoCodes: once(async () => deps.config.mpesa.api !== null),
    promoPrice(packageId, code, days) {
      const key = `${packageId}:${days ?? 1}:${code}`;
      if (!promoPrices.has(key)) {
        promoPrices.set(
          key,
          (async () => {
            const priced = await codePrice(db, phone, packageId, code, days);
            const lang = await language();
            if (priced === null) return { refusal: fixedText('ussd.package_gone', lang) };
            if (isRefusal(priced)) return { refusal: fixedText(priced.textId, lang, priced.values) };
            return { price: compactKes(priced.priceCents) };
          })(),
        );
      }
      return promoPrices.get(key)!;
    },
    asksAge: once(() => mustDeclareAge(db, phone)),
    consented: once(() => hasConsent(db, phone)),
    consentWording: once(async () => customerText(db, 'marketing_consent_wording', await language())),
    pausable: once(async () => {
      const standing = await pauseStanding(db, phone);
      const open = 'refusal' in standing ? standing : openForPause(standing.running);
      if ('refusal' in open) return { refusal: fixedText(open.refusal, await language()) };
      const maxDays = 'maxDays' in standing ? standing.maxDays : 0;
      return {
        maxDays,
        subscriptions: open.open.map((s) => ({ id: s.subscriptionId, category: s.category, code: s.code, medium: mediumName(s.medium), expiresAt: s.expiresAt })),
      };
    }),
    subscriptions: once(async () => {
      const id = await subscriberId();
      if (id === null) return [];
      return Promise.all(
        (await q.runningSubscriptions(db, id)).map(async (s) => {
          const view = await autoRenewView(deps, id, Number(s.subscription_id));
          const autoRenew = !view ? null : 'order' in view ? { orderId: view.order.id } : { subscriptionId: view.subscriptionId };
          return { category: s.category, code: s.code, medium: mediumName(s.medium), date: customerDate(s.expires_at, await language()), autoRenew };
        }),
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
  if (!phone) return `END ${fixedText('ussd.kenyan_only', await getSetting(deps.db, 'customer_language_default'))}`;
  // An erased person's phone records nothing again: no purchase, consent or subscriber.
  if (await isErasedPhone(deps.db, phone)) return `END ${fixedText('ussd.erased_refused', await getSetting(deps.db, 'customer_language_default'))}`;
  const facts = factsFor(deps, phone);
  const outcome = await walk(session.text, facts);
  if ('screen' in outcome) return fit(outcome.screen);
  const w = menuWords(await facts.language());
  return fit(await act(deps, outcome.action, { phone, sessionId: session.sessionId, requestId, w }));
}

type SessionOf = { phone: string; sessionId: string; requestId: string; w: MenuWords };

async function act(deps: AppDeps, action: MenuAction, s: SessionOf): Promise<Screen> {
  switch (action.do) {
    case 'buy':
      return buy(deps, action, s);
    case 'todays-tips':
      return todaysTips(deps, s);
    case 'sms': {
      await deps.db.transaction((tx) =>
        setOwnSmsChoice(tx, { phone: s.phone, receive: action.receive, source: 'ussd', requestId: s.requestId }),
      );
      return `END ${s.w.say(action.receive ? 'ussd.sms_started' : 'ussd.sms_stopped')}`;
    }
    case 'offers':
      await setOffersConsent(deps.db, action.given, s);
      return `END ${s.w.say(action.given ? 'ussd.offers_given' : 'ussd.offers_stopped')}`;
    case 'auto-renew': {
      // Queued: Ratiba's PIN prompt comes once the session has ended (the auto-renewal job sends it).
      const subscriberId = (await q.subscriberIdByPhone(deps.db, s.phone))!;
      const { standing_order: o } = await turnOnAutoRenew(deps, { subscriberId, phone: s.phone, subscriptionId: action.subscriptionId, via: 'ussd', requestId: s.requestId });
      return `END ${s.w.say('ussd.auto_renew_started', { amount: String(o.amount), frequency: o.frequency, end: customerDate(o.end_date, s.w.language) })}`;
    }
    case 'auto-renew-stop': {
      const subscriberId = (await q.subscriberIdByPhone(deps.db, s.phone))!;
      await stopAutoRenew(deps, { orderId: action.orderId, subscriberId, actorUserId: null, requestId: s.requestId });
      return `END ${s.w.say('ussd.auto_renew_stopped')}`;
    }
    case 'exclude':
      return `END ${await excludeByUssd(deps, s.phone, action.period, s.requestId, s.w.language)}`;
    case 'pause':
      return pause(deps, action, s);
    case 'language':
      await deps.db.transaction((tx) => setLanguage(tx, { phone: s.phone, language: action.language, source: 'ussd', by: null }));
      // Answered in the language just chosen.
      return `END ${menuWords(action.language).say('ussd.language_set')}`;
  }
}

/**
 * The person gives or withdraws marketing consent on the USSD menu: their own act (channel ussd),
 * recorded with the wording the screen showed them, and audited.
 */
async function setOffersConsent(db: AppDeps['db'], given: boolean, s: { phone: string; requestId: string; w: MenuWords }): Promise<void> {
  await db.transaction(async (tx) => {
    const wording = given
      ? offersQuestion(await customerText(tx, 'marketing_consent_wording', s.w.language), s.w)
      : s.w.say('ussd.offers_stop_question');
    const changed = await recordConsent(tx, { phone: s.phone, given, channel: 'ussd', wording, note: 'Chosen on the USSD menu' });
    if (!changed) return;
    await audit(tx, given ? 'consent.given' : 'consent.withdrawn', sha256Hex(s.phone).slice(0, 16), { actorUserId: null, requestId: s.requestId }, {
      after: { channel: 'ussd', by: 'the person (USSD)' },
    });
  });
}

/** The paybill instructions of a package by SMS (transactional: the punter asked for them). */
async function queuePayInstructions(tx: Queryable, deps: AppDeps, p: PackageForSale, phone: string, key: string, days: number | null = null): Promise<void> {
  const language = await languageOf(tx, phone);
  const paybill = deps.config.mpesa.shortcode;
  const template = await customerTemplate(tx, 'ussd_pay_instructions_sms', language);
  // Without a paybill number the clause that would give it is left out ("…Pay Bill, account
  // number D2…"), rather than reading "business number our paybill".
  const worded = paybill ? template : template.replace(/,?[^,.:;>]*\{paybill\}/g, '');
  // A daily package's (decision 095): the days asked, at days x the day price.
  const bought = days !== null && p.billing === 'daily' ? { ...p, durationDays: days } : p;
  const amount = compactKes(priceForDays(p, days ?? 1));
  const body = fill(worded, { package: packageName(bought, language), amount, code: p.code, ...(paybill ? { paybill } : {}) }, language);
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
async function buy(deps: AppDeps, action: Extract<MenuAction, { do: 'buy' }>, s: SessionOf): Promise<Screen> {
  const { packageId, declaresAdult } = action;
  const daysAsked = action.days ?? null;
  // No sale to a self-excluded or under-18 person (decision 059), not even the paybill instructions.
  if (await saleRefused(deps.db, s.phone, 'ussd')) return `END ${s.w.say('ussd.sale_refused')}`;
  const stk = deps.config.mpesa.api !== null;
  // A promo code is priced again at the confirming input (it may have been used up since its
  // screen) and once more by the job, whose push holds its use (decision 077).
  const promo = action.code === undefined || !stk ? null : await codePrice(deps.db, s.phone, packageId, action.code, daysAsked ?? 1);
  if (promo && isRefusal(promo)) return `END ${fixedText(promo.textId, s.w.language, promo.values)}`;
  const pkg = await deps.db.transaction(async (tx) => {
    const found = await packageForSale(tx, packageId);
    if (!found) return null;
    // The 18+ confirm screen's yes (decision 060), recorded with the purchase it came before.
    if (declaresAdult) await declareAdult(tx, s.phone, 'ussd');
    const days = found.billing === 'daily' ? (daysAsked ?? 1) : null;
    const id = await q.insertPurchase(tx, { sessionId: s.sessionId, phone: s.phone, packageId, status: stk ? 'queued' : 'instructed', promoCode: promo?.code ?? null, days });
    if (id !== null && !stk) await queuePayInstructions(tx, deps, found, s.phone, `session:${s.sessionId}`, days);
    return found;
  });
  if (!pkg) return `END ${s.w.say('ussd.package_gone')}`;
  const price = compactKes(promo ? promo.priceCents : priceForDays(pkg, daysAsked ?? 1));
  if (stk) {
    await deps.jobs.nudge(QUEUES.ussdPurchases);
    return `END ${s.w.say('ussd.enter_pin', { price, category: short(pkg.category), medium: mediumName(pkg.medium) })}`;
  }
  await deps.jobs.nudge(QUEUES.smsDispatch);
  return `END ${s.w.say('ussd.pay_sms_coming', { price })}`;
}

/**
 * The confirmed pause (decision 090), by the same rules as the portal's and the keyword's: a refusal
 * (paused by another way meanwhile, pausing turned off) ends the session in its catalogue words.
 */
async function pause(deps: AppDeps, action: Extract<MenuAction, { do: 'pause' }>, s: SessionOf): Promise<Screen> {
  try {
    const { info } = await pauseSubscription(deps, { phone: s.phone, subscriptionId: action.subscriptionId, days: action.days, via: 'ussd', requestId: s.requestId });
    return `END ${info}`;
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return `END ${Object.values(error.options.errors ?? {}).flat()[0] ?? error.info}`;
  }
}

async function todaysTips(deps: AppDeps, s: SessionOf): Promise<Screen> {
  const { phone, w } = s;
  const subscriberId = await q.subscriberIdByPhone(deps.db, phone);
  if (subscriberId === null) return `END ${w.say('ussd.no_running_tips')}`;
  const r = await deps.db.transaction((tx) => resendTodaysTips(tx, { subscriberId, phone, day: nairobiDayOf(new Date()) }));
  if (r.queued.length > 0) await deps.jobs.nudge(QUEUES.smsDispatch);
  const parts = [
    r.queued.length > 0 ? w.say('ussd.tips_on_their_way', { categories: r.queued.join(', ') }) : '',
    r.alreadySent.length > 0 ? w.say('ussd.tips_already_sent', { categories: r.alreadySent.join(', ') }) : '',
    r.notYet.length > 0 ? w.say('ussd.tips_not_yet', { categories: r.notYet.join(', ') }) : '',
  ].filter(Boolean);
  if (parts.length === 0) return `END ${w.say('ussd.no_running_tips')}`;
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
        if (pkg) await queuePayInstructions(tx, deps, pkg, purchase.phone, `purchase:${purchase.id}`, purchase.days);
      });
      texted = true;
    }
  }
  if (texted) await deps.jobs.nudge(QUEUES.smsDispatch);
  return sent;
}

async function pushFor(
  deps: AppDeps,
  purchase: { phone: string; packageId: number; promoCode: string | null; days: number | null },
): Promise<{ stkRequestId: number | null; reason: string | null }> {
  let promo: { price: PromoPrice; channel: 'ussd'; language: Language } | null = null;
  if (purchase.promoCode !== null) {
    // The code's price and its use are the portal's (decision 077): priced now, held with the push.
    const price = await codePrice(deps.db, purchase.phone, purchase.packageId, purchase.promoCode, purchase.days ?? 1);
    if (price === null) return { stkRequestId: null, reason: 'The package is no longer on sale' };
    if (isRefusal(price)) return { stkRequestId: null, reason: fixedText(price.textId, 'en', price.values) };
    promo = { price, channel: 'ussd', language: await languageOf(deps.db, purchase.phone) };
  }
  const subscriberId = await deps.db.transaction((tx) =>
    subscribePayer(tx, { phone: purchase.phone, name: null, paymentId: null, requestId: null }),
  );
  const stkRequestId = await requestPackagePayment(deps, {
    subscriberId,
    phone: purchase.phone,
    packageId: purchase.packageId,
    ...(purchase.days !== null ? { days: purchase.days } : {}),
    requestId: null,
    origin: 'ussd',
    ...(promo ? { promo } : {}),
  });
  return stkRequestId === null
    ? { stkRequestId: null, reason: 'M-Pesa is not configured, or the package is no longer on sale' }
    : { stkRequestId, reason: null };
}
