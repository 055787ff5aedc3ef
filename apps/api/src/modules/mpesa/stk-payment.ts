/**
 * The money of a paid STK request, shared by its two ways of arriving: the callback (stk-callback.ts)
 * and, when the callback does not come, an STK query (stk-query.ts).
 */
import type { Queryable } from '../../db/client.ts';
import { saleBlockOf } from '../../db/sale-blocks.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { keepRefusedPayment, refusedPaymentWarning } from '../exclusions/service.ts';
import { announcePayment, settleStored } from './ingest.ts';
import { categoryNamedBy, normaliseAccount, type Payee } from './matching.ts';
import * as q from './queries/claims.ts';
import type { StkRequestRow } from './queries/payment-requests.ts';
import { heldUseOfRequest, releaseUsesOfRequest } from '../promo-codes/service.ts';
import type { RequestedItem, SettlementOutcome } from './settle.ts';

/** ResultCode 1032 is the payer cancelling; every other non-zero code is a failure. */
export function endedStatus(resultCode: string): 'cancelled' | 'failed' {
  return resultCode === '1032' ? 'cancelled' : 'failed';
}


function requestedItemOf(r: StkRequestRow): RequestedItem {
  // A daily package's push asked for so many days (decision 095).
  if (r.purpose === 'package') return r.days !== null ? { packageId: r.packageId!, days: r.days } : { packageId: r.packageId! };
  if (r.purpose === 'plan') return { planId: r.planId! };
  return { bonus: true };
}

/** What the request asked, with the promo code use it holds (decision 077). */
async function requestedWithPromo(tx: Queryable, r: StkRequestRow): Promise<RequestedItem> {
  const item = requestedItemOf(r);
  if (!('packageId' in item)) return item;
  const held = await heldUseOfRequest(tx, r.id);
  return held ? { ...item, promo: { useId: Number(held.id), priceCents: Number(held.price_cents), discountCents: Number(held.discount_cents) } } : item;
}

function payeeOf(r: { clientId: number | null; subscriberId: number | null }): Payee {
  return r.clientId !== null ? { clientId: r.clientId } : { subscriberId: r.subscriberId! };
}

/**
 * Stores the money of a paid STK request (receipt known from the callback, or not yet when only an
 * STK query confirmed it) and settles it for what was requested. If C2B already stored the
 * receipt, that payment stands and nothing is counted twice.
 */
export async function storeStkPayment(
  tx: Queryable,
  request: StkRequestRow,
  paid: { receipt: string | null; amountCents: number; phone: string; transTime: Date | null; raw: unknown },
  requestId: string | null,
): Promise<{ paymentId: number; outcome: SettlementOutcome | null }> {
  const row = await q.insertPaymentOnce(tx, {
    transId: paid.receipt,
    source: 'stk',
    transactionType: 'STK push',
    amountCents: paid.amountCents,
    billRefNumber: request.accountReference,
    msisdn: paid.phone,
    msisdnKind: 'plain',
    senderPhone: paid.phone,
    transTime: paid.transTime,
    raw: paid.raw ?? {},
    status: 'unclaimed',
  });
  if (!row) {
    // C2B (or a pull) stored this receipt first. If its rules found the payee, it stands; if it
    // waits unclaimed, this request says whose it is and what it buys: settled here, once.
    const existing = await q.lockPaymentByReceipt(tx, paid.receipt!);
    if (existing!.status !== 'unclaimed' || existing!.amountCents === null) return { paymentId: existing!.id, outcome: null };
    const settled = await settleForRequest(tx, request, existing!.id, existing!.amountCents, requestId, paid);
    return { paymentId: existing!.id, outcome: settled.outcome };
  }
  const { outcome, claimed } = await settleForRequest(tx, request, row.id, paid.amountCents, requestId, paid);
  await announcePayment(tx, {
    paymentId: row.id,
    amountCents: paid.amountCents,
    senderName: null,
    account: request.accountReference,
    status: claimed ? 'claimed' : 'unclaimed',
  });
  return { paymentId: row.id, outcome };
}

/**
 * Claims a stored payment for what an STK request asked (its payee, its item). A package or plan
 * asked before its payer excluded themselves (or was marked under 18) and paid after is not sold:
 * the one sale check of decision 059 is read again at settlement, and the money kept for a refund
 * as any blocked payment is (the person told once).
 */
async function settleForRequest(
  tx: Queryable,
  request: StkRequestRow,
  paymentId: number,
  amountCents: number,
  requestId: string | null,
  paid: { receipt: string | null; phone: string },
): Promise<{ outcome: SettlementOutcome | null; claimed: boolean }> {
  if (request.purpose !== 'bonus') {
    const block = await saleBlockOf(tx, request.phone, paid.phone);
    if (block) {
      await releaseUsesOfRequest(tx, request.id);
      await q.setPaymentWarning(tx, paymentId, refusedPaymentWarning(block));
      const smsQueued = await keepRefusedPayment(tx, { paymentId, phone: paid.phone, phoneHash: sha256Hex(paid.phone), block, amountCents, receipt: paid.receipt });
      return { outcome: smsQueued ? { bonusPaidCents: 0, subscriptionId: null, activatedSms: null, smsQueued: true } : null, claimed: false };
    }
  }
  const category = request.purpose === 'package' ? await categoryNamedBy(tx, normaliseAccount(request.accountReference)) : null;
  const { outcome } = await settleStored(tx, {
    paymentId,
    amountCents,
    payee: payeeOf(request),
    betCategoryId: category?.id ?? null,
    source: 'stk',
    matchedBy: 'stk',
    requested: await requestedWithPromo(tx, request),
    actorUserId: null,
    requestId,
  });
  return { outcome, claimed: outcome !== null };
}
