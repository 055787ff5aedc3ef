import {
  centsToKes,
  kesFixed,
  kesToCents,
  localPhone,
  priceForDays,
  successTextsMpesa,
  wholeShillingsUp,
  type PayableItem,
  type PaymentRequest,
  type RequestPayment,
  refusalTexts,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Queryable } from '../../db/client.ts';
import type { StkOrigin } from '../../db/schema/mpesa.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, fieldError, notFound } from '../../http/errors.ts';
import { darajaFor, DarajaError } from '../../integrations/mpesa/daraja.ts';
import { audit } from '../audit/service.ts';
import { refuseBlockedSale } from '../exclusions/service.ts';
import { pendingBonusCents } from '../bonuses/service.ts';
import { requireClient } from '../clients/service.ts';
import * as matchingQ from './queries/matching.ts';
import * as requestsQ from './queries/payment-requests.ts';
import { attachStkRequest, isRefusal, refusalError, takeUse, type PromoPrice } from '../promo-codes/service.ts';
import type { Language } from '../../customer-texts/catalogue.ts';
import { settleFromQuery } from './stk-query.ts';

type Payer = { clientId: number } | { subscriberId: number };

const NOT_CONFIGURED =
  'M-Pesa is not configured on this server (MPESA_CONSUMER_KEY, MPESA_CONSUMER_SECRET, MPESA_SHORTCODE, MPESA_PASSKEY, MPESA_CALLBACK_BASE_URL), so no payment request can be sent.';

function payerOf(q: { client_id?: number | undefined; subscriber_id?: number | undefined }): Payer {
  return q.client_id !== undefined ? { clientId: q.client_id } : { subscriberId: q.subscriber_id! };
}

/** The payer's name and phone; a client must be in the actor's scope (404 otherwise). */
async function payerDetails(db: Queryable, actor: Actor, payer: Payer): Promise<{ name: string; phone: string }> {
  if ('clientId' in payer) {
    await requireClient(db, actor, payer.clientId);
    return (await matchingQ.clientNameAndPhone(db, payer.clientId))!;
  }
  const s = await matchingQ.subscriberNameAndPhone(db, payer.subscriberId);
  if (!s) throw notFound(refusalTexts.subscriberWasNotFound);
  return s;
}

/** Daraja takes whole shillings (no cents in STK's Amount): a price with cents is asked rounded up. */
/** The label says so when the amount asked is the price rounded up. */
const roundedNote = (cents: number) =>
  cents % 100 === 0 ? '' : ` (KES ${kesFixed(cents)} asked as KES ${centsToKes(wholeShillingsUp(cents))}: M-Pesa takes whole shillings)`;

interface Priced {
  item: PayableItem;
  purpose: 'package' | 'plan' | 'bonus';
  packageId?: number;
  planId?: number;
  /** A daily package's day price (decision 095): the item's amount is one day's. */
  dayPriceCents?: number;
  /** A daily package's days asked: the amount is days x the day price. */
  days?: number;
  accountReference: string;
}

/** What the payer can be asked to pay: tips packages for a subscriber; plans and the pending bonus for a client. */
async function payableItems(db: Queryable, payer: Payer): Promise<Priced[]> {
  if ('subscriberId' in payer) {
    const packages = await requestsQ.packagesForSale(db);
    return packages.map((p) => ({
      item: {
        key: `package:${p.id}`,
        label: `${p.category} (${p.code}), ${p.medium.toUpperCase()}, ${p.billing === 'daily' ? '1 day (sold by the day)' : `${p.durationDays} days`}${roundedNote(p.priceCents)}`,
        amount: centsToKes(wholeShillingsUp(p.priceCents)),
      },
      purpose: 'package' as const,
      packageId: p.id,
      ...(p.billing === 'daily' ? { dayPriceCents: p.priceCents } : {}),
      accountReference: p.code,
    }));
  }
  const plans = await requestsQ.plansForSale(db);
  const items: Priced[] = plans.map((p) => ({
    item: {
      key: `plan:${p.id}`,
      label: `${p.name} plan, ${p.durationDays} days${roundedNote(p.priceCents)}`,
      amount: centsToKes(wholeShillingsUp(p.priceCents)),
    },
    purpose: 'plan' as const,
    planId: p.id,
    accountReference: `B4M${payer.clientId}`,
  }));
  const pending = await pendingBonusCents(db, payer.clientId);
  if (pending > 0) {
    items.push({
      item: { key: 'bonus', label: 'Pending bonus', amount: centsToKes(wholeShillingsUp(pending)) },
      purpose: 'bonus',
      accountReference: `B4M${payer.clientId}`,
    });
  }
  return items;
}

/** Payment requests with what they asked for and the receipt they were paid with. */
async function requestsOf(db: Queryable, of: Parameters<typeof requestsQ.paymentRequestRows>[1], limit: number): Promise<PaymentRequest[]> {
  const found = await requestsQ.paymentRequestRows(db, of, limit);
  return found.map((r) => ({
    id: Number(r.id),
    phone: localPhone(r.phone),
    amount: centsToKes(Number(r.amount_cents)),
    item: r.item ?? 'Payment',
    status: r.status,
    result_desc: r.result_desc,
    transaction_reference: r.receipt,
    requested_on: new Date(r.requested_at).toISOString(),
  }));
}

export async function paymentRequestOptions(
  deps: AppDeps,
  actor: Actor,
  query: { client_id?: number | undefined; subscriber_id?: number | undefined },
) {
  const payer = payerOf(query);
  const details = await payerDetails(deps.db, actor, payer);
  const items = await payableItems(deps.db, payer);
  return {
    name: details.name,
    phone: localPhone(details.phone),
    items: items.map((i) => i.item),
    requests: await requestsOf(deps.db, payer, 5),
    configured: deps.config.mpesa.api !== null,
  };
}

/**
 * Sends an STK push for what was chosen. The request row is written first (pending), then Daraja
 * is called; its ids settle the row, or its refusal marks it failed and answers 502.
 */
export async function requestPayment(
  deps: AppDeps,
  actor: Actor,
  body: RequestPayment,
  requestId: string,
): Promise<{ info: string; request: PaymentRequest }> {
  const daraja = darajaFor(deps.config.mpesa, deps.config.webhookSecret);
  if (!daraja) throw new AppError(503, NOT_CONFIGURED, { popup: true });
  const payer = payerOf(body);
  await payerDetails(deps.db, actor, payer);
  const chosen = (await payableItems(deps.db, payer)).find((i) => i.item.key === body.item);
  if (!chosen) throw fieldError('item', refusalTexts.choosePayable);
  const rowId = await pushStk(deps, daraja, { payer, chosen, phone: body.phone, actorUserId: actor.userId, requestId, item: body.item, origin: 'staff' });
  const [request] = await requestsOf(deps.db, { id: rowId }, 1);
  return { info: successTextsMpesa.paymentRequested, request: request! };
}

/**
 * A texted category code (SMS keyword) asks for that category's cheapest SMS package: an STK push
 * to the sender, who must already be a subscriber. Null when M-Pesa is not configured or the
 * category has no SMS package; throws when M-Pesa refuses.
 */
export async function requestCheapestSmsPackage(
  deps: AppDeps,
  r: { subscriberId: number; phone: string; betCategoryId: number; requestId: string | null },
): Promise<number | null> {
  const daraja = darajaFor(deps.config.mpesa, deps.config.webhookSecret);
  if (!daraja) return null;
  const cheapest = await requestsQ.cheapestSmsPackage(deps.db, r.betCategoryId);
  if (cheapest === null) return null;
  return requestPackagePayment(deps, { ...r, packageId: cheapest, origin: 'sms' });
}

/**
 * An STK push to the subscriber's phone for one tips package, asked by the punter themselves (no
 * staff user): the portal, the USSD menu, the SMS keyword, or a recovery retry of one of those
 * (`origin` says which). Null when M-Pesa is not configured or the package is not for sale (no
 * price); throws when M-Pesa refuses. Returns the payment request's id.
 */
export async function requestPackagePayment(
  deps: AppDeps,
  r: { subscriberId: number; phone: string; packageId: number; days?: number; requestId: string | null; origin: StkOrigin | null; promo?: PromoPush },
): Promise<number | null> {
  const daraja = darajaFor(deps.config.mpesa, deps.config.webhookSecret);
  if (!daraja) return null;
  const payer: Payer = { subscriberId: r.subscriberId };
  const found = (await payableItems(deps.db, payer)).find((i) => i.packageId === r.packageId);
  if (!found) return null;
  // A daily package (decision 095) asks days x its day price (an item's amount is one day's).
  const dayPrice = found.dayPriceCents;
  const days = r.days ?? 1;
  const chosen: Priced =
    dayPrice === undefined
      ? found
      : { ...found, days, item: { ...found.item, amount: centsToKes(wholeShillingsUp(priceForDays({ billing: 'daily', priceCents: dayPrice }, days))) } };
  return pushStk(deps, daraja, {
    payer,
    chosen,
    phone: r.phone,
    actorUserId: null,
    requestId: r.requestId,
    item: chosen.item.key,
    origin: r.origin,
    ...(r.promo ? { promo: r.promo } : {}),
  });
}

/** A promo code's price asked by a push, and the language its refusal is said in (decision 077). */
export interface PromoPush {
  price: PromoPrice;
  channel: 'portal' | 'ussd';
  language: Language;
}

/**
 * The request row is written first (pending), then Daraja is called; its ids settle the row, or its
 * refusal marks it failed and answers 502. Returns the request's id.
 */
async function pushStk(
  deps: AppDeps,
  daraja: NonNullable<ReturnType<typeof darajaFor>>,
  p: {
    payer: Payer;
    chosen: Priced;
    phone: string;
    actorUserId: number | null;
    requestId: string | null;
    item: string;
    origin: StkOrigin | null;
    promo?: PromoPush;
  },
): Promise<number> {
  const { payer, chosen } = p;
  const body = { phone: p.phone, item: p.item };
  const actor = { userId: p.actorUserId };
  const requestId = p.requestId;
  // A promo code asks its discounted price; its use is held with the request (decision 077).
  const amountCents = p.promo ? p.promo.price.priceCents : kesToCents(chosen.item.amount);
  // No sale to a self-excluded or under-18 person (decision 059); a bonus owed may still be paid.
  if (chosen.purpose !== 'bonus') await refuseBlockedSale(deps.db, p.phone, p.origin ?? 'staff');

  const rowId = await deps.db.transaction(async (tx) => {
    const inserted = await requestsQ.insertPaymentRequest(tx, {
      purpose: chosen.purpose,
      clientId: 'clientId' in payer ? payer.clientId : null,
      subscriberId: 'subscriberId' in payer ? payer.subscriberId : null,
      packageId: chosen.packageId ?? null,
      planId: chosen.planId ?? null,
      days: chosen.days ?? null,
      phone: body.phone,
      amountCents,
      accountReference: chosen.accountReference,
      requestedBy: actor.userId,
      origin: p.origin,
    });
    if (p.promo && chosen.packageId != null) {
      const held = await takeUse(tx, p.promo.price, { phone: body.phone, packageId: chosen.packageId, channel: p.promo.channel, status: 'held' });
      if (isRefusal(held)) throw await refusalError(tx, held, p.promo.language);
      await attachStkRequest(tx, held.useId, inserted);
    }
    await audit(tx, 'payment.request', inserted, { actorUserId: actor.userId, requestId }, {
      after: { ...payer, item: body.item, phone: body.phone, amount_cents: amountCents, ...(chosen.days !== undefined ? { days: chosen.days } : {}), ...(p.promo ? { promo_code: p.promo.price.code, discount_cents: p.promo.price.discountCents } : {}) },
    });
    return inserted;
  });

  try {
    const answer = await daraja.stkPush({
      phone: body.phone,
      amountKes: centsToKes(amountCents),
      accountReference: chosen.accountReference,
      description: chosen.purpose === 'bonus' ? 'Bonus' : chosen.purpose === 'plan' ? 'Bet4Me plan' : 'Tips package',
    });
    await requestsQ.markRequestSent(deps.db, rowId, { merchantRequestId: answer.merchantRequestId, checkoutRequestId: answer.checkoutRequestId });
  } catch (error) {
    const reason = error instanceof DarajaError ? error.message : 'M-Pesa could not be reached';
    await requestsQ.markRequestRefused(deps.db, rowId, reason);
    throw new AppError(502, `M-Pesa did not accept the payment request: ${reason}`, { popup: true });
  }
  return rowId;
}

/** One request; a staff user sees only requests to their own clients (or to tips subscribers). */
export async function showPaymentRequest(deps: AppDeps, actor: Actor, id: number): Promise<{ request: PaymentRequest }> {
  const found = await requestsQ.clientOfRequest(deps.db, id);
  if (!found) throw notFound(refusalTexts.paymentRequestNotFound);
  if (found.clientId !== null) await requireClient(deps.db, actor, found.clientId);
  const [request] = await requestsOf(deps.db, { id }, 1);
  return { request: request! };
}

const MAX_QUERY_ATTEMPTS = 10;

/**
 * The re-check job: pending requests older than the STK timeout whose callback never came are asked
 * with an STK query, a few at a time, and settled by its answer.
 */
export async function recheckPendingRequests(deps: AppDeps): Promise<number> {
  const daraja = darajaFor(deps.config.mpesa, deps.config.webhookSecret);
  if (!daraja) return 0;
  const cutoff = new Date(Date.now() - deps.config.mpesa.stkTimeoutSeconds * 1000);
  const due = await requestsQ.requestsToRecheck(deps.db, cutoff, 50);
  let settled = 0;
  for (const request of due) {
    if (!request.checkoutRequestId) {
      // Daraja never answered the push itself: nothing to ask about.
      await settleFromQuery(deps, request.id, { resultCode: null, resultDesc: '' }, 1);
      continue;
    }
    const answer = await daraja.stkQuery(request.checkoutRequestId).catch(() => ({ resultCode: null, resultDesc: '' }));
    const status = await settleFromQuery(deps, request.id, answer, MAX_QUERY_ATTEMPTS);
    if (status !== 'pending') settled += 1;
  }
  return settled;
}
