import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  centsToKes,
  DailyDays,
  localPhone,
  priceForDays,
  type PackageBilling,
  nairobiDayOf,
  portalTexts,
  presetRange,
  wholeShillingsUp,
  type PortalMe,
  type PortalRecordQuery,
  type PortalPackage,
  type PortalPageQuery,
  type PortalPost,
  type PortalPurchase,
  type PortalSubscription,
  type PortalTeaser,
  type TaxIdentityForm,
  refusalTexts,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { isExcludedNow } from '../../db/sale-blocks.ts';
import type { AppDeps } from '../../deps.ts';
import type { PortalSession } from '../../http/actor.ts';
import { AppError, conflict, fieldError, notFound, tooManyRequests } from '../../http/errors.ts';
import { newToken, sha256Hex } from '../../lib/crypto.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit } from '../audit/service.ts';
import { declareAdult, mustDeclareAge } from '../compliance/service.ts';
import { autoRenewAfterPurchase, autoRenewView, stop as stopAutoRenew, turnOn as turnOnAutoRenew, wireOrder, type AutoRenewView } from '../auto-renew/service.ts';
import { requestPackagePayment } from '../mpesa/service.ts';
import { getSetting } from '../settings/service.ts';
import { customerTexts, isLanguage, type Language } from '../../customer-texts/catalogue.ts';
import { fill } from '../../customer-texts/format.ts';
import { fixedText } from '../../customer-texts/texts.ts';
import { chosenLanguage, customerText, customerTextFor, hasConsent, isErasedPhone, isOptedOut, languageOf, optIn, optOut, queueSms, recordConsent, setLanguage } from '../sms/service.ts';
import { categoryById, proofChainHead, publicTickets, trackRecord } from '../tips-record/service.ts';
import { packageForSale, packagesForSale, type PackageForSale } from '../tips-prices/service.ts';
import { invoicesOfPayments, invoicesOfSubscriptions } from '../tax/service.ts';
import { buyerOfInvoice, identityView, saveTaxIdentity } from '../tax/service.ts';
import { subscribePayer } from '../tips-subscribers/service.ts';
import { winningsForReaders } from '../tips-winnings/service.ts';
import { isRefusal, priceWithCode, referralCode, refusalError } from '../promo-codes/service.ts';
import { refuseBlockedSale } from '../exclusions/service.ts';
import { startTrial, trialOffer } from '../trials/service.ts';
import { PAUSABLE_MIN_DAYS, pauseStanding } from '../pauses/service.ts';
import * as q from './queries.ts';

/** A code works for 10 minutes and allows 5 wrong tries (decision 021). */
export const CODE_TTL_MINUTES = 10;
export const CODE_TRIES = 5;
/** A portal session lasts 30 days: punters come back daily on the same phone. */
export const SESSION_TTL_DAYS = 30;
export const CODE_SMS_INTENT = 'portal.sign-in-code';

export interface RequestOrigin {
  ip: string;
  userAgent: string | null;
}

const codeHash = (phone: string, code: string) => sha256Hex(`portal-code:${phone}:${code}`);

/**
 * Sends a sign-in code to any valid Kenyan number, known or not, with the same answer either way:
 * the portal tells nobody who subscribes. Codes asked for are counted per phone and per IP.
 */
export async function requestCode(deps: AppDeps, phone: string, origin: RequestOrigin): Promise<{ info: string }> {
  const { db } = deps;
  // An erased person's phone is refused outright: a code would record a new sign-in for it.
  if (await isErasedPhone(db, phone)) throw fieldError('phone', fixedText('portal.erased_refused', await languageOf(db, phone)));
  const windowMinutes = await getSetting(db, 'portal_code_window_minutes');
  const [byPhone, byIp] = await Promise.all([
    q.countCodesSince(db, { phone }, windowMinutes),
    q.countCodesSince(db, { ip: origin.ip }, windowMinutes),
  ]);
  if (byPhone >= (await getSetting(db, 'portal_codes_per_phone')) || byIp >= (await getSetting(db, 'portal_codes_per_ip'))) {
    throw tooManyRequests(portalTexts.tooManyCodes);
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.transaction(async (tx) => {
    const id = await q.insertCode(tx, { phone, codeHash: codeHash(phone, code), ip: origin.ip, ttlMinutes: CODE_TTL_MINUTES });
    const subscriber = await q.subscriberByPhone(tx, phone);
    const body = await customerTextFor(tx, phone, 'portal_code_sms', { business: await getSetting(tx, 'portal_business_name'), code });
    // Transactional: a code reaches an opted-out phone too, since the person asked for it.
    await queueSms(tx, { intent: CODE_SMS_INTENT, dedupeKey: `${CODE_SMS_INTENT}:${id}`, to: phone, body, createdBy: null, subscriberId: subscriber?.id ?? null });
  });
  await deps.jobs.nudge(QUEUES.smsDispatch);
  return { info: portalTexts.codeSent };
}

/**
 * Checks a code against the phone's newest live code. A wrong code counts a try (kept even though
 * the answer is a 422); once the tries are spent every answer is 429 until a new code is asked for.
 * A right code is used up and opens a session; the token goes only into the cookie.
 */
export async function verifyCode(
  deps: AppDeps,
  input: { phone: string; code: string },
  origin: RequestOrigin,
): Promise<{ token: string }> {
  if (await isErasedPhone(deps.db, input.phone)) throw fieldError('phone', fixedText('portal.erased_refused', await languageOf(deps.db, input.phone)));
  const outcome = await deps.db.transaction(async (tx) => {
    const live = await q.liveCodeForUpdate(tx, input.phone);
    if (!live) return 'wrong' as const;
    if (live.tries >= CODE_TRIES) return 'spent' as const;
    const given = Buffer.from(codeHash(input.phone, input.code));
    const stored = Buffer.from(live.codeHash);
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
      await q.countWrongTry(tx, live.id);
      return 'wrong' as const;
    }
    await q.markCodeUsed(tx, live.id);
    const token = newToken();
    await q.insertSession(tx, { phone: input.phone, tokenHash: sha256Hex(token), ttlDays: SESSION_TTL_DAYS, ...origin });
    return { token };
  });
  if (outcome === 'spent') throw tooManyRequests(portalTexts.triesSpent);
  if (outcome === 'wrong') throw fieldError('code', portalTexts.wrongCode);
  return outcome;
}

export async function sessionForToken(db: Queryable, token: string): Promise<PortalSession | null> {
  return q.liveSession(db, sha256Hex(token));
}

export async function signOut(db: Queryable, session: PortalSession): Promise<void> {
  await q.revokeSession(db, session.sessionId);
}

export async function me(deps: AppDeps, session: PortalSession): Promise<PortalMe> {
  const { db } = deps;
  const subscriber = await q.subscriberByPhone(db, session.phone);
  const language = await languageOf(db, session.phone);
  return {
    language,
    phone: localPhone(session.phone),
    name: subscriber?.name ?? null,
    receives_sms: !(await isOptedOut(db, session.phone)),
    offers_consent: await hasConsent(db, session.phone),
    offers_wording: await customerText(db, 'marketing_consent_wording', language),
    subscriptions: subscriber ? await withInvoices(deps, subscriber.id, session.phone, await q.subscriptionsOf(db, subscriber.id)) : [],
    tax_identity: subscriber ? (await identityView(db, { subscriberId: subscriber.id })).identity : null,
    // No referral lever for a self-excluded person (decision 088).
    referral_code: subscriber && !(await isExcludedNow(db, session.phone)) ? await referralCode(db, { subscriberId: subscriber.id }) : null,
  };
}

/** The punter's own KRA PIN and registered name (decision 074), on the subscriber the phone is. */
export async function setPortalTaxIdentity(deps: AppDeps, session: PortalSession, form: TaxIdentityForm, requestId: string) {
  const subscriber = await q.subscriberByPhone(deps.db, session.phone);
  if (!subscriber) throw conflict(fixedText('portal.tax_identity.subscribe_first', await languageOf(deps.db, session.phone)), 'not_a_subscriber');
  const saved = await saveTaxIdentity(deps, { subscriberId: subscriber.id }, form, { actorUserId: null, requestId, userId: null, via: 'subscriber (portal)' });
  return { info: saved.info, identity: saved.identity };
}

/** Whether an invoice is one of the signed-in phone's own (its subscription's subscriber is the phone). */
export async function ownInvoice(deps: AppDeps, session: PortalSession, invoiceId: number): Promise<boolean> {
  const buyer = await buyerOfInvoice(deps.db, invoiceId);
  const subscriber = await q.subscriberByPhone(deps.db, session.phone);
  return Boolean(buyer && subscriber && buyer.subscriber_id === subscriber.id);
}

/** Each subscription with the invoice of its latest sale: one query for all of them. */
async function withInvoices(deps: AppDeps, subscriberId: number, phone: string, found: Awaited<ReturnType<typeof q.subscriptionsOf>>) {
  const invoices = await invoicesOfSubscriptions(deps, found.flatMap((s) => (s.saleId === null ? [] : [s.saleId])));
  const pauses = await pauseStanding(deps.db, phone);
  return Promise.all(
    found.map(async ({ saleId, ...s }) => ({
      ...s,
      invoice: saleId === null ? null : (invoices.get(saleId) ?? null),
      auto_renew: autoRenewOfView(await autoRenewView(deps, subscriberId, s.subscription_id)),
      pause: pauseOf(pauses, s),
    })),
  );
}

/**
 * The pause a subscription card offers or shows (decision 090): of the running subscription of its
 * category and medium (renewals stacked after it are not running yet).
 */
function pauseOf(standing: Awaited<ReturnType<typeof pauseStanding>>, s: { bet_category_code: string; medium: 'sms' | 'web' }): PortalSubscription['pause'] {
  if ('refusal' in standing) return null;
  const running = standing.running.find((r) => r.code === s.bet_category_code && r.medium === s.medium);
  if (!running || running.durationDays < PAUSABLE_MIN_DAYS) return null;
  if (running.pause) {
    return { paused: { subscription_id: running.subscriptionId, starts_at: running.pause.startsAt.toISOString(), ends_at: running.pause.endsAt.toISOString() } };
  }
  return { offer: { subscription_id: running.subscriptionId, max_days: standing.maxDays } };
}

/** The portal's shape of a subscription's automatic renewal. */
export function autoRenewOfView(view: AutoRenewView | null): PortalSubscription['auto_renew'] {
  if (!view) return null;
  if ('order' in view) return { standing_order: view.order };
  const { amount, frequency, date, endDate, declinedOn } = view.offer;
  return { offer: { amount, frequency, start_date: date, end_date: endDate, declined_on: declinedOn } };
}

/** The signed-in subscriber turns on automatic renewal of one of their subscriptions (404 when not theirs or Ratiba is off). */
export async function turnOnAutoRenewal(deps: AppDeps, session: PortalSession, subscriptionId: number, requestId: string) {
  const subscriber = await q.subscriberByPhone(deps.db, session.phone);
  if (!subscriber) throw notFound(refusalTexts.autoRenewSubscriptionNotFound);
  return turnOnAutoRenew(deps, { subscriberId: subscriber.id, phone: session.phone, subscriptionId, via: 'portal', requestId });
}

/** The signed-in subscriber stops one of their standing orders: one step, confirmed by SMS. */
export async function stopAutoRenewal(deps: AppDeps, session: PortalSession, orderId: number, requestId: string) {
  const subscriber = await q.subscriberByPhone(deps.db, session.phone);
  const { order } = await stopAutoRenew(deps, { orderId, subscriberId: subscriber?.id ?? -1, actorUserId: null, requestId });
  return { info: fixedText('portal.notice.auto_renew_stopped', await languageOf(deps.db, session.phone)), standing_order: wireOrder(order) };
}

/** The automatic renewal to offer on a paid purchase's page (null when Ratiba is off or not offered). */
export async function autoRenewOfPurchase(deps: AppDeps, session: PortalSession, paymentId: number | null) {
  const subscriber = await q.subscriberByPhone(deps.db, session.phone);
  const view = subscriber ? await autoRenewAfterPurchase(deps, subscriber.id, paymentId) : null;
  return { autoRenew: autoRenewOfView(view), subscriptionId: view?.subscriptionId ?? 0 };
}

/** The signed-in phone chooses its language: every later SMS, USSD screen and portal notice follows it. */
export async function setPortalLanguage(db: AppDeps['db'], session: PortalSession, language: Language): Promise<{ info: string; language: Language }> {
  await db.transaction((tx) => setLanguage(tx, { phone: session.phone, language, source: 'portal', by: null }));
  return { info: fixedText('portal.language_set', language), language };
}

/** The web posts the signed-in phone paid for; nothing for a phone that bought nothing. */
export async function myTips(db: Queryable, session: PortalSession, page: PortalPageQuery) {
  const subscriber = await q.subscriberByPhone(db, session.phone);
  if (!subscriber) return { posts: [], total_records: 0 };
  const found = await q.readablePosts(db, subscriber.id, { limit: page.perPage, offset: (page.page - 1) * page.perPage });
  return { posts: found.posts, total_records: found.total };
}

/** A teaser: what anyone may know of a post they cannot read. */
function teaser(post: PortalPost): PortalTeaser {
  return { id: post.id, title: post.title, post_category: post.post_category, bet_categories: post.bet_categories, match_date: post.match_date };
}

/**
 * A post for a reader (signed in or not): with its content when it is a free tip or in a category
 * of their active web subscription, else a 403 carrying the teaser and never the content.
 */
export async function postFor(db: Queryable, session: PortalSession | null, id: number): Promise<{ post: PortalPost }> {
  const subscriber = session ? await q.subscriberByPhone(db, session.phone) : null;
  const found = await q.postForReader(db, id, subscriber?.id ?? null);
  if (!found) throw notFound(refusalTexts.tipNotFound);
  if (!found.readable) throw new PostLocked(teaser(found.post));
  return { post: found.post };
}

/** The 403 of a post the reader may not read; its body carries the teaser. */
export class PostLocked extends AppError {
  constructor(readonly teaser: PortalTeaser) {
    super(403, portalTexts.notYours, { code: 'subscribe' });
  }
}

const packageOut = (p: PackageForSale): PortalPackage => ({
  id: p.id,
  name: p.name,
  bet_category: p.category,
  bet_category_code: p.code,
  medium: p.medium,
  duration_days: p.durationDays,
  price: centsToKes(p.priceCents),
  billing: p.billing,
});

export async function packages(db: Queryable): Promise<{ packages: PortalPackage[] }> {
  return { packages: (await packagesForSale(db)).map(packageOut) };
}

export async function packageById(db: Queryable, id: number) {
  const found = await packageForSale(db, id);
  if (!found) throw notFound(refusalTexts.packageNotOnSale);
  return { package: packageOut(found), teasers: await q.teasersOfCategory(db, found.betCategoryId, 5) };
}

/** What the public pages show: the business, today's free tips, Winnings & Results, the packages. */
export async function publicFacts(deps: AppDeps) {
  const { db } = deps;
  const [business, support] = await Promise.all([getSetting(db, 'portal_business_name'), getSetting(db, 'portal_support_phone')]);
  return {
    business,
    support,
    paybill: deps.config.mpesa.shortcode ?? deps.config.mpesa.tillNumber ?? null,
    stkAvailable: deps.config.mpesa.api !== null,
  };
}

/** The home page's line and search description, in the reader's language (`portal_description`, `portal_description_sw`). */
export async function portalDescription(db: Queryable, language: Language): Promise<string> {
  return String(await getSetting(db, language === 'en' ? 'portal_description' : 'portal_description_sw'));
}

export async function homeContent(db: Queryable) {
  const [free, winnings, onSale] = await Promise.all([freeTips(db), winningsForReaders(db), packages(db)]);
  return { free, winnings, packages: onSale.packages };
}

export const freeTips = (db: Queryable) => q.freePosts(db, nairobiDayOf(new Date()), 20);

/**
 * Buys or renews a package by STK push to the signed-in phone. The phone becomes a tips subscriber
 * now if it was not one; the payment request and its activation follow the rules of every other
 * payment (mpesa). Audited as the subscriber's own purchase. Without M-Pesa's API: 503 with the
 * paybill instructions.
 */
export async function purchase(deps: AppDeps, session: PortalSession, packageId: number, requestId: string, adult = false, code = '', daysAsked?: unknown) {
  const chosen = await packageForSale(deps.db, packageId);
  if (!chosen) throw fieldError('package_id', portalTexts.noPackage);
  const days = daysOf(chosen, daysAsked);
  // A promo code is priced (and refused, saying why) before anything is written (decision 077).
  const promo = code.trim() === '' ? null : await promoPriceOf(deps.db, session, chosen, code, days ?? 1);
  // The 18+ declaration before the phone's first purchase (decision 060): the tick is the
  // declaration, kept even when the payment then goes by paybill.
  if (await mustDeclareAge(deps.db, session.phone)) {
    if (!adult) throw fieldError('adult', portalTexts.ageRequired);
    await declareAdult(deps.db, session.phone, 'portal');
  }
  if (deps.config.mpesa.api === null) {
    throw new AppError(503, await paybillInstructions(deps, chosen), { code: 'paybill' });
  }
  // The days of a daily package (decision 095) go with the push, which asks days x the day price.
  const subscriberId = await deps.db.transaction(async (tx) => {
    const known = await q.subscriberByPhone(tx, session.phone);
    return known?.id ?? (await subscribePayer(tx, { phone: session.phone, name: null, paymentId: null, requestId }));
  });
  const requestRowId = await requestPackagePayment(deps, {
    subscriberId,
    phone: session.phone,
    packageId,
    ...(days !== null ? { days } : {}),
    requestId,
    origin: 'portal',
    ...(promo ? { promo: { price: promo.price, channel: 'portal' as const, language: promo.language } } : {}),
  });
  if (requestRowId === null) throw new AppError(503, await paybillInstructions(deps, chosen), { code: 'paybill' });
  await audit(deps.db, 'portal.purchase', requestRowId, { actorUserId: null, requestId }, {
    after: { by: 'subscriber (portal)', phone: session.phone, subscriber_id: subscriberId, package_id: packageId, package: chosen.name, ...(days !== null ? { days } : {}) },
  });
  return { info: portalTexts.paymentRequested, payment_request_id: requestRowId };
}

/**
 * The days asked of a daily package (decision 095): 1 to 30, else a 422 on `days`; null for a
 * package priced for its length (whatever was sent).
 */
function daysOf(chosen: PackageForSale, asked: unknown): number | null {
  if (chosen.billing !== 'daily') return null;
  const parsed = DailyDays.safeParse(asked);
  if (!parsed.success) throw fieldError('days', portalTexts.dailyDays);
  return parsed.data;
}

async function promoPriceOf(db: Queryable, session: PortalSession, chosen: PackageForSale, code: string, days = 1) {
  const language = await languageOf(db, session.phone);
  const listPriceCents = priceForDays(chosen, days);
  const price = await priceWithCode(db, { codeText: code, packageId: chosen.id, listPriceCents, phone: session.phone });
  if (isRefusal(price)) throw await refusalError(db, price, language);
  return { price, language };
}

/**
 * The price asked for a package with a promo code (decision 077): a self-excluded or under-18
 * phone is refused as a purchase is (decision 059); a code that cannot be used is a 422 on `code`.
 */
export async function priceAsked(deps: AppDeps, session: PortalSession, packageId: number, code: string, daysAsked?: number) {
  const chosen = await packageForSale(deps.db, packageId);
  if (!chosen) throw fieldError('package_id', portalTexts.noPackage);
  const days = daysOf(chosen, daysAsked ?? 1);
  await refuseBlockedSale(deps.db, session.phone, 'portal');
  const { price } = await promoPriceOf(deps.db, session, chosen, code, days ?? 1);
  return {
    package_id: chosen.id,
    code: price.code,
    days,
    list_price: centsToKes(price.listPriceCents),
    discount: centsToKes(price.discountCents),
    price: centsToKes(price.priceCents),
  };
}

/** How to pay a package by paybill: the number, the account (the category code) and the amount. */
export async function paybillInstructions(
  deps: AppDeps,
  p: { code: string; priceCents: number; billing?: PackageBilling },
  language: Language = 'en',
): Promise<string> {
  const facts = await publicFacts(deps);
  const amount = String(centsToKes(wholeShillingsUp(p.priceCents)));
  if (p.billing === 'daily') {
    // A daily package (decision 095): any whole number of days at the day price, a week as the example.
    const example = { days: '7', example: String(centsToKes(p.priceCents * 7)) };
    return facts.paybill
      ? fixedText('portal.pay.package_daily', language, { paybill: facts.paybill, code: p.code, amount, ...example })
      : fixedText('portal.pay.package_daily_unknown', language, { support: facts.support, code: p.code, amount, ...example });
  }
  return facts.paybill
    ? fixedText('portal.pay.package', language, { paybill: facts.paybill, code: p.code, amount })
    : fixedText('portal.pay.package_unknown', language, { support: facts.support, code: p.code, amount });
}

/**
 * The language a portal page is written in: the signed-in phone's own choice, else the visitor's
 * cookie (the switch), else the business's default.
 */
export async function pageLanguage(db: Queryable, session: PortalSession | null, cookie: unknown): Promise<Language> {
  const chosen = session ? await chosenLanguage(db, session.phone) : null;
  if (chosen) return chosen;
  if (isLanguage(cookie)) return cookie;
  return getSetting(db, 'customer_language_default');
}

/** What every page's foot says: the responsible-gambling line (the catalogue's Kiswahili while the setting is the default) and the licence. */
export async function trustLines(db: Queryable, language: Language): Promise<{ responsible: string; licence: string }> {
  const [responsible, licence] = await Promise.all([getSetting(db, 'portal_responsible_gambling'), getSetting(db, 'portal_licence_line')]);
  const unchanged = responsible === customerTexts['portal.responsible_gambling'].en;
  return { responsible: unchanged ? fixedText('portal.responsible_gambling', language) : responsible, licence };
}

const TRUST_KEYS = { terms: 'portal_terms', refunds: 'portal_refund_policy', privacy: 'portal_privacy_notice' } as const;

/** A trust page's text in the reader's language, with the business's facts filled in. */
export async function trustPageText(deps: AppDeps, which: keyof typeof TRUST_KEYS, language: Language): Promise<string> {
  const { db } = deps;
  const key = TRUST_KEYS[which];
  const template = String(await getSetting(db, language === 'en' ? key : `${key}_sw`));
  const facts = await publicFacts(deps);
  const values = {
    business: facts.business,
    support: facts.support,
    request_days: await getSetting(db, 'privacy_request_days'),
    retention_years: await getSetting(db, 'privacy_retention_years'),
    sms_text_days: await getSetting(db, 'sms_text_retention_days'),
  };
  try {
    return fill(template, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])), language);
  } catch {
    // Settings are checked when saved; a text saved before that check is shown as it is.
    return template;
  }
}

/** How to pay, for the home and help pages: the USSD code, the paybill and the codes of the categories on sale. */
export async function payFacts(deps: AppDeps, onSale: PortalPackage[]) {
  const facts = await publicFacts(deps);
  const names = new Map(onSale.map((p) => [p.bet_category_code, p.bet_category]));
  const categories = [...names.entries()].map(([code, name]) => ({ code, name })).sort((a, b) => a.name.localeCompare(b.name));
  return { ussdCode: (await getSetting(deps.db, 'portal_ussd_code')).trim(), paybill: facts.paybill, categories };
}

/**
 * The public record of a category (or all) over a period: its totals, and one page of its tickets
 * that are settled and whose every leg has kicked off, newest first.
 */
export async function publicRecord(db: Queryable, query: PortalRecordQuery) {
  const range: { from?: string; to?: string } = query.period === 'all' ? {} : presetRange(query.period);
  const category = query.bet_category_id === undefined ? null : await categoryById(db, query.bet_category_id);
  if (query.bet_category_id !== undefined && !category) throw fieldError('bet_category_id', refusalTexts.betCategoryNotFound);
  const [totals, page] = await Promise.all([
    trackRecord(db, { bet_category_id: category?.id, from: range.from, to: range.to }),
    publicTickets(db, { betCategoryId: category?.id, ...range }, { limit: query.perPage, offset: (query.page - 1) * query.perPage }),
  ]);
  return {
    totals: { ...totals, bet_category: category?.name ?? 'All categories', code: category?.code ?? null },
    tickets: page.tickets,
    total_records: page.total,
    chain_head: await proofChainHead(db),
  };
}

export async function purchaseStatus(deps: AppDeps, session: PortalSession, id: number): Promise<{ purchase: PortalPurchase; paymentId: number | null }> {
  const subscriber = await q.subscriberByPhone(deps.db, session.phone);
  const found = subscriber ? await q.purchaseOf(deps.db, subscriber.id, id) : null;
  if (!found) throw notFound(refusalTexts.purchaseNotFound);
  const invoice = found.paymentId === null ? null : ((await invoicesOfPayments(deps, [found.paymentId])).get(found.paymentId) ?? null);
  return { purchase: { ...found.purchase, invoice }, paymentId: found.paymentId };
}

/**
 * Stops or restarts SMS for the signed-in phone: STOP and START as the outbox enforces them (all
 * service and promotional messages; transactional ones still go), audited as the subscriber's doing.
 */
export async function setSmsPreference(deps: AppDeps, session: PortalSession, receive: boolean, requestId: string) {
  const phone = session.phone;
  await deps.db.transaction(async (tx) => {
    const changed = receive
      ? (await optIn(tx, { phone, source: 'portal', reason: 'Restarted SMS on the portal' })).length > 0
      : await optOut(tx, { phone, scope: 'all', source: 'portal', reason: 'Stopped SMS on the portal' });
    if (!changed) return;
    await audit(tx, receive ? 'sms.opt-out.clear' : 'sms.opt-out', phone, { actorUserId: null, requestId }, {
      before: { opted_out: receive },
      after: { opted_out: !receive, by: 'subscriber (portal)' },
    });
  });
  return { info: receive ? portalTexts.smsRestarted : portalTexts.smsStopped, receives_sms: receive };
}

/**
 * The subscriber ticks or unticks "send me offers" on the portal: their marketing consent, with the
 * exact wording shown, recorded as their own act (channel portal) and audited.
 */
export async function setOffersConsent(deps: AppDeps, session: PortalSession, given: boolean, requestId: string) {
  await deps.db.transaction(async (tx) => {
    // The wording the portal showed: the person's language's.
    const wording = await customerTextFor(tx, session.phone, 'marketing_consent_wording');
    const changed = await recordConsent(tx, { phone: session.phone, given, channel: 'portal', wording, note: 'Ticked on the portal' });
    if (!changed) return;
    await audit(tx, given ? 'consent.given' : 'consent.withdrawn', sha256Hex(session.phone).slice(0, 16), { actorUserId: null, requestId }, {
      after: { channel: 'portal', by: 'subscriber (portal)' },
    });
  });
}

/** The free trial a package page offers the reader (decision 089): null when none, taken, or barred for the signed-in phone. */
export function trialOfPage(deps: AppDeps, session: PortalSession | null, packageId: number) {
  return trialOffer(deps, packageId, session?.phone ?? null);
}

/** The signed-in phone starts a package's free trial (decision 089). */
export function startPortalTrial(deps: AppDeps, session: PortalSession, body: { package_id: number; auto_renew: boolean; adult: boolean }, requestId: string) {
  return startTrial(deps, { phone: session.phone, packageId: body.package_id, autoRenew: body.auto_renew, adult: body.adult, requestId });
}

/** Whether the package page asks the signed-in phone for its 18+ declaration (decision 060). */
export async function asksAgeDeclaration(deps: AppDeps, session: PortalSession | null): Promise<boolean> {
  return session !== null && (await mustDeclareAge(deps.db, session.phone));
}
