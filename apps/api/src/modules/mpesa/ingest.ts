import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { centsToKes, kesToCents, normaliseKenyanPhone, readProviderPayload } from '@betdesk/contract';
import { ourShortcodes } from '../../config.ts';
import type { AppDeps } from '../../deps.ts';
import { mpesaPayments, stkRequests } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { audit } from '../audit/service.ts';
import { announce } from '../events/service.ts';
import { sendCurrentTipOnActivation } from '../tips-sms/service.ts';
import { subscribePayer } from '../tips-subscribers/service.ts';
import { nairobiTime, parseC2b, type C2bFields } from './c2b-payload.ts';
import {
  accountLooksValid,
  categoryNamedBy,
  ERASED_PAYER_WARNING,
  matchPayment,
  newTipsPayer,
  normaliseAccount,
  paidByErasedPerson,
  type Payee,
} from './matching.ts';
import { settlePayment, type RequestedItem, type SettlementOutcome } from './settle.ts';

export interface Receipt {
  /** False when the TransID was seen before: acknowledged and ignored. */
  stored: boolean;
  paymentId: number | null;
  status: 'unclaimed' | 'claimed' | 'rejected' | null;
  /** A matched payment's rules failed unexpectedly; it was kept unclaimed (for the log). */
  settleError?: unknown;
  /** Stored unclaimed for a person to check (e.g. paid to another shortcode). */
  warning?: string | null;
}

/**
 * Applies a stored payment to its payee in a savepoint: if the rules fail unexpectedly the payment
 * stays stored (unclaimed) instead of being lost with the whole transaction.
 */
async function settleStored(
  tx: Queryable,
  s: {
    paymentId: number;
    amountCents: number;
    payee: Payee;
    betCategoryId: number | null;
    source: 'mpesa' | 'stk';
    matchedBy: 'account' | 'msisdn' | 'stk' | 'manual';
    requested?: RequestedItem | null;
    actorUserId: number | null;
    requestId?: string | null;
  },
): Promise<{ outcome: SettlementOutcome | null; error?: unknown }> {
  try {
    const outcome = await tx.transaction(async (sp) => {
      await sp
        .update(mpesaPayments)
        .set({
          status: 'claimed',
          clientId: 'clientId' in s.payee ? s.payee.clientId : null,
          subscriberId: 'subscriberId' in s.payee ? s.payee.subscriberId : null,
          matchedBy: s.matchedBy,
          claimedBy: s.actorUserId,
          claimedAt: sql`now()`,
        })
        .where(eq(mpesaPayments.id, s.paymentId));
      const settled = await settlePayment(sp, s);
      if (settled.activatedSms) {
        await sendCurrentTipOnActivation(sp, { ...settled.activatedSms, medium: 'sms', createdBy: s.actorUserId });
      }
      await audit(sp, {
        actorUserId: s.actorUserId,
        action: s.matchedBy === 'manual' ? 'payment.claim' : 'payment.match',
        entity: 'mpesa_payment',
        entityId: s.paymentId,
        before: { status: 'unclaimed' },
        after: {
          status: 'claimed',
          ...s.payee,
          matched_by: s.matchedBy,
          bonus_paid_cents: settled.bonusPaidCents,
          subscription_id: settled.subscriptionId,
        },
        requestId: s.requestId ?? null,
      });
      return settled;
    });
    return { outcome };
  } catch (error) {
    if (s.matchedBy === 'manual') throw error;
    return { outcome: null, error };
  }
}

/**
 * Matches a freshly stored C2B payment and settles it when the rules find its payee; a tips payer
 * who is not yet a subscriber becomes one when their phone is known (pay to subscribe).
 */
async function matchStored(tx: Queryable, paymentId: number, f: C2bFields, requestId: string | null) {
  const match = (await matchPayment(tx, f)) ?? (await subscribeNewPayer(tx, paymentId, f, requestId));
  if (!match) return { status: 'unclaimed' as const, outcome: null };
  const { outcome, error } = await settleStored(tx, {
    paymentId,
    amountCents: f.amountCents!,
    payee: match.payee,
    betCategoryId: match.betCategoryId,
    source: 'mpesa',
    matchedBy: match.matchedBy,
    actorUserId: null,
    requestId,
  });
  return { status: outcome ? ('claimed' as const) : ('unclaimed' as const), outcome, error };
}

async function subscribeNewPayer(tx: Queryable, paymentId: number, f: C2bFields, requestId: string | null) {
  if (await paidByErasedPerson(tx, f)) {
    // Their money is kept and counted, but nobody is re-created from it: an admin claims it by hand.
    await tx.update(mpesaPayments).set({ warning: ERASED_PAYER_WARNING }).where(eq(mpesaPayments.id, paymentId));
    return null;
  }
  const payer = await newTipsPayer(tx, f);
  if (!payer) return null;
  const subscriberId = await subscribePayer(tx, { phone: payer.phone, name: f.senderName, paymentId, requestId });
  return { payee: { subscriberId }, betCategoryId: payer.betCategoryId, matchedBy: 'account' as const };
}

/**
 * An STK payment confirmed only by an STK query has no receipt yet. When the same money then arrives
 * with its receipt (a C2B confirmation from the same phone, same amount), the receipt is attached to
 * that payment instead of counting the money twice.
 */
async function adoptReceipt(tx: Queryable, f: C2bFields): Promise<number | null> {
  const phoneHash = f.msisdnKind === 'hashed' ? f.msisdn : f.senderPhone ? sha256Hex(f.senderPhone) : null;
  if (!phoneHash || f.amountCents === null || !f.transId) return null;
  const [waiting] = await tx
    .select({ id: mpesaPayments.id })
    .from(mpesaPayments)
    .where(
      and(
        isNull(mpesaPayments.transId),
        eq(mpesaPayments.source, 'stk'),
        eq(mpesaPayments.amountCents, f.amountCents),
        sql`${mpesaPayments.senderPhone} is not null and encode(sha256(convert_to(${mpesaPayments.senderPhone}, 'UTF8')), 'hex') = ${phoneHash}`,
        gt(mpesaPayments.receivedAt, sql`now() - interval '2 days'`),
      ),
    )
    .orderBy(mpesaPayments.receivedAt)
    .limit(1)
    .for('update');
  if (!waiting) return null;
  const adopted = await tx
    .update(mpesaPayments)
    .set({ transId: f.transId })
    .where(and(eq(mpesaPayments.id, waiting.id), isNull(mpesaPayments.transId)))
    .returning({ id: mpesaPayments.id });
  return adopted[0]?.id ?? null;
}

/** Tells the admins' screens that money arrived (delivered when this transaction commits). */
function announcePayment(
  tx: Queryable,
  paymentId: number,
  p: { amountCents: number; senderName: string | null; account: string | null; status: string },
): Promise<void> {
  return announce(tx, {
    type: 'payment.received',
    payment_id: paymentId,
    amount: centsToKes(p.amountCents),
    sender_name: p.senderName,
    account: p.account,
    status: p.status,
  });
}

function afterCommit(deps: AppDeps, outcome: SettlementOutcome | null | undefined): Promise<void> {
  return outcome?.activatedSms || outcome?.smsQueued ? deps.jobs.nudge(QUEUES.smsDispatch) : Promise.resolve();
}

/**
 * A C2B confirmation: stored once per TransID (a repeat, even 20 at once, is acknowledged and
 * ignored through the unique constraint), raw payload kept, then matched and settled in the same
 * transaction `tx`. A payload that cannot be read is stored as rejected with the reason.
 * `source` says how it reached us: the callback, or recovered later by Pull Transactions or a
 * portal statement (then it counts on the day M-Pesa received it, its TransTime).
 */
export async function storeC2bConfirmation(
  tx: Queryable,
  shortCodes: string | readonly string[] | undefined,
  raw: unknown,
  requestId: string | null,
  source: 'c2b' | 'pull' | 'statement' = 'c2b',
): Promise<Receipt & { outcome: SettlementOutcome | null }> {
  const { fields: f, rejectReason, warning, raw: storable } = parseC2b(raw, shortCodes);
  if (!rejectReason && !warning) {
    const adopted = await adoptReceipt(tx, f);
    if (adopted !== null) return { stored: false, paymentId: adopted, status: null, outcome: null };
  }
  const [row] = await tx
    .insert(mpesaPayments)
    .values({
      // A rejected payload keeps its TransID in the raw body only, so it never blocks the real one.
      transId: rejectReason ? null : f.transId,
      source,
      transactionType: f.transactionType,
      amountCents: f.amountCents,
      billRefNumber: f.billRefNumber,
      msisdn: f.msisdn,
      msisdnKind: f.msisdnKind,
      senderPhone: f.senderPhone,
      senderName: f.senderName,
      transTime: f.transTime,
      businessShortCode: f.businessShortCode,
      raw: storable,
      status: rejectReason ? 'rejected' : 'unclaimed',
      rejectReason,
      warning,
      ...(source !== 'c2b' && f.transTime ? { receivedAt: f.transTime } : {}),
    })
    .onConflictDoNothing({ target: mpesaPayments.transId })
    .returning({ id: mpesaPayments.id });
  if (!row) return { stored: false, paymentId: null, status: null, outcome: null };
  if (rejectReason) return { stored: true, paymentId: row.id, status: 'rejected', outcome: null };
  if (warning) {
    // Money M-Pesa received, but not as the business expects: counted, shown, never matched
    // automatically; an admin claims it after a look.
    await announcePayment(tx, row.id, { amountCents: f.amountCents!, senderName: f.senderName, account: f.billRefNumber, status: 'unclaimed' });
    return { stored: true, paymentId: row.id, status: 'unclaimed', outcome: null, warning };
  }
  const matched = await matchStored(tx, row.id, f, requestId);
  await announcePayment(tx, row.id, { amountCents: f.amountCents!, senderName: f.senderName, account: f.billRefNumber, status: matched.status });
  return { stored: true, paymentId: row.id, status: matched.status, outcome: matched.outcome, settleError: matched.error };
}

/** The confirmation webhook's work: one transaction, then the SMS queue is nudged if a tip was queued. */
export async function receiveC2bConfirmation(deps: AppDeps, raw: unknown, requestId: string | null): Promise<Receipt> {
  const result = await deps.db.transaction((tx) => storeC2bConfirmation(tx, ourShortcodes(deps.config.mpesa), raw, requestId));
  await afterCommit(deps, result.outcome);
  return result;
}

export type ValidationAnswer = { ResultCode: string; ResultDesc: string };

/**
 * C2B validation (Daraja asks before it takes the money). A payment to a shortcode that is neither
 * the store number nor the till is always refused (C2B00015): the business does not take money it
 * would then have to set aside. With the `mpesa_validate_account` setting on, an amount outside
 * Daraja's limits (C2B00013) or an account number that names nothing (C2B00012) is refused too.
 */
export async function validateC2b(deps: AppDeps, raw: unknown, strict: boolean): Promise<ValidationAnswer> {
  const accepted = { ResultCode: '0', ResultDesc: 'Accepted' };
  const { fields, rejectReason, warning } = parseC2b(raw, ourShortcodes(deps.config.mpesa));
  if (warning) return { ResultCode: 'C2B00015', ResultDesc: 'Rejected' };
  if (!strict) return accepted;
  if (rejectReason?.startsWith('TransAmount')) return { ResultCode: 'C2B00013', ResultDesc: 'Rejected' };
  if (!(await accountLooksValid(deps.db, fields.billRefNumber))) return { ResultCode: 'C2B00012', ResultDesc: 'Rejected' };
  return accepted;
}

interface StkCallbackBody {
  checkoutRequestId: string;
  resultCode: string;
  resultDesc: string;
  amountCents: number | null;
  receipt: string | null;
  phone: string | null;
  transTime: Date | null;
}

function readStkCallback(raw: unknown): StkCallbackBody | null {
  const cb = (raw as { Body?: { stkCallback?: Record<string, unknown> } } | null)?.Body?.stkCallback;
  if (!cb || typeof cb.CheckoutRequestID !== 'string' || cb.ResultCode === undefined) return null;
  const items = (cb.CallbackMetadata as { Item?: { Name?: string; Value?: unknown }[] } | undefined)?.Item ?? [];
  const item = (name: string) => {
    const value = items.find((i) => i.Name === name)?.Value;
    return value === undefined || value === null ? null : String(value);
  };
  const amount = item('Amount');
  const cents = amount !== null && /^\d+(\.\d{1,2})?$/.test(amount) ? kesToCents(Number(amount)) : null;
  const date = item('TransactionDate');
  const phone = item('PhoneNumber');
  return {
    checkoutRequestId: cb.CheckoutRequestID,
    resultCode: String(cb.ResultCode),
    resultDesc: typeof cb.ResultDesc === 'string' ? cb.ResultDesc.slice(0, 300) : '',
    amountCents: cents,
    // A receipt is ten characters; a longer text is cut so that it can still be stored (and looked at).
    receipt: item('MpesaReceiptNumber')?.slice(0, 64) ?? null,
    phone: phone ? normaliseKenyanPhone(phone) : null,
    transTime: date ? nairobiTime(date) : null,
  };
}

/** ResultCode 1032 is the payer cancelling; every other non-zero code is a failure. */
function endedStatus(resultCode: string): 'cancelled' | 'failed' {
  return resultCode === '1032' ? 'cancelled' : 'failed';
}

type StkRequestRow = typeof stkRequests.$inferSelect;

function requestedItemOf(r: StkRequestRow): RequestedItem {
  if (r.purpose === 'package') return { packageId: r.packageId! };
  if (r.purpose === 'plan') return { planId: r.planId! };
  return { bonus: true };
}

function payeeOf(r: { clientId: number | null; subscriberId: number | null }): Payee {
  return r.clientId !== null ? { clientId: r.clientId } : { subscriberId: r.subscriberId! };
}

/**
 * Stores the money of a paid STK request (receipt known from the callback, or not yet when only an
 * STK query confirmed it) and settles it for what was requested. If C2B already stored the
 * receipt, that payment stands and nothing is counted twice.
 */
async function storeStkPayment(
  tx: Queryable,
  request: StkRequestRow,
  paid: { receipt: string | null; amountCents: number; phone: string; transTime: Date | null; raw: unknown },
  requestId: string | null,
): Promise<{ paymentId: number; outcome: SettlementOutcome | null }> {
  const [row] = await tx
    .insert(mpesaPayments)
    .values({
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
    })
    .onConflictDoNothing({ target: mpesaPayments.transId })
    .returning({ id: mpesaPayments.id });
  if (!row) {
    // C2B (or a pull) stored this receipt first. If its rules found the payee, it stands; if it
    // waits unclaimed, this request says whose it is and what it buys: settled here, once.
    const [existing] = await tx
      .select({ id: mpesaPayments.id, status: mpesaPayments.status, amountCents: mpesaPayments.amountCents })
      .from(mpesaPayments)
      .where(eq(mpesaPayments.transId, paid.receipt!))
      .for('update');
    if (existing!.status !== 'unclaimed' || existing!.amountCents === null) return { paymentId: existing!.id, outcome: null };
    const settled = await settleForRequest(tx, request, existing!.id, existing!.amountCents, requestId);
    return { paymentId: existing!.id, outcome: settled };
  }
  const outcome = await settleForRequest(tx, request, row.id, paid.amountCents, requestId);
  await announcePayment(tx, row.id, {
    amountCents: paid.amountCents,
    senderName: null,
    account: request.accountReference,
    status: outcome ? 'claimed' : 'unclaimed',
  });
  return { paymentId: row.id, outcome };
}

/** Claims a stored payment for what an STK request asked (its payee, its item). */
async function settleForRequest(
  tx: Queryable,
  request: StkRequestRow,
  paymentId: number,
  amountCents: number,
  requestId: string | null,
): Promise<SettlementOutcome | null> {
  const category = request.purpose === 'package' ? await categoryNamedBy(tx, normaliseAccount(request.accountReference)) : null;
  const { outcome } = await settleStored(tx, {
    paymentId,
    amountCents,
    payee: payeeOf(request),
    betCategoryId: category?.id ?? null,
    source: 'stk',
    matchedBy: 'stk',
    requested: requestedItemOf(request),
    actorUserId: null,
    requestId,
  });
  return outcome;
}

/** The STK callback: settles its request; a success stores the receipt as a payment (once). */
export async function receiveStkCallback(deps: AppDeps, received: unknown, requestId: string | null): Promise<void> {
  // Read with control characters removed, kept with them escaped: a NUL must not lose the money.
  const { clean, raw } = readProviderPayload(received);
  const cb = readStkCallback(clean);
  if (!cb) return;
  const outcome = await deps.db.transaction(async (tx) => {
    const [request] = await tx
      .select()
      .from(stkRequests)
      .where(eq(stkRequests.checkoutRequestId, cb.checkoutRequestId))
      .for('update');
    if (!request) {
      // A push this server did not send (or lost): its money is still stored, unclaimed.
      if (cb.resultCode === '0' && cb.receipt && cb.amountCents) {
        const [stored] = await tx
          .insert(mpesaPayments)
          .values({
            transId: cb.receipt,
            source: 'stk',
            transactionType: 'STK push',
            amountCents: cb.amountCents,
            msisdn: cb.phone,
            msisdnKind: cb.phone ? 'plain' : 'unknown',
            senderPhone: cb.phone,
            transTime: cb.transTime,
            raw: raw as object,
            status: 'unclaimed',
          })
          .onConflictDoNothing({ target: mpesaPayments.transId })
          .returning({ id: mpesaPayments.id });
        if (stored) {
          await announcePayment(tx, stored.id, { amountCents: cb.amountCents, senderName: null, account: null, status: 'unclaimed' });
        }
      }
      return null;
    }
    if (request.status === 'paid') {
      // Confirmed earlier by an STK query: the callback brings the receipt.
      if (cb.receipt && request.paymentId) {
        await tx
          .update(mpesaPayments)
          .set({ transId: cb.receipt, raw: raw as object })
          .where(
            and(
              eq(mpesaPayments.id, request.paymentId),
              isNull(mpesaPayments.transId),
              sql`not exists (select 1 from ${mpesaPayments} other where other.trans_id = ${cb.receipt})`,
            ),
          );
      }
      return null;
    }
    if (request.status !== 'pending') {
      // Failed or cancelled here (the STK query timed out, Daraja said so), yet M-Pesa took the
      // money: a success with a receipt is always stored and settled, whatever we had decided.
      if (cb.resultCode !== '0' || !cb.receipt) return null;
    } else if (cb.resultCode !== '0') {
      await tx
        .update(stkRequests)
        .set({ status: endedStatus(cb.resultCode), resultCode: cb.resultCode, resultDesc: cb.resultDesc, settledAt: sql`now()` })
        .where(eq(stkRequests.id, request.id));
      return null;
    }
    const stored = await storeStkPayment(
      tx,
      request,
      {
        receipt: cb.receipt,
        amountCents: cb.amountCents ?? request.amountCents,
        phone: cb.phone ?? request.phone,
        transTime: cb.transTime,
        raw,
      },
      requestId,
    );
    const late = request.status !== 'pending' ? ` (arrived after the request was marked ${request.status})` : '';
    await tx
      .update(stkRequests)
      .set({
        status: 'paid',
        resultCode: '0',
        resultDesc: `${cb.resultDesc}${late}`.slice(0, 300),
        paymentId: stored.paymentId,
        settledAt: sql`now()`,
      })
      .where(eq(stkRequests.id, request.id));
    return stored.outcome;
  });
  await afterCommit(deps, outcome);
}

/**
 * Settles one pending request from an STK query's answer (the callback did not come in time).
 * A success without a receipt stores the payment receipt-less; the receipt is attached when it
 * arrives (callback or C2B). Returns the request's status afterwards.
 */
export async function settleFromQuery(
  deps: AppDeps,
  requestIdOfRow: number,
  answer: { resultCode: string | null; resultDesc: string },
  maxAttempts: number,
): Promise<string> {
  const result = await deps.db.transaction(async (tx) => {
    const [request] = await tx.select().from(stkRequests).where(eq(stkRequests.id, requestIdOfRow)).for('update');
    if (!request || request.status !== 'pending') return { status: request?.status ?? 'missing', outcome: null };
    if (answer.resultCode === null) {
      const giveUp = request.queryAttempts + 1 >= maxAttempts;
      await tx
        .update(stkRequests)
        .set({
          queriedAt: sql`now()`,
          queryAttempts: request.queryAttempts + 1,
          ...(giveUp ? { status: 'failed' as const, resultDesc: 'M-Pesa never said how the request ended', settledAt: sql`now()` } : {}),
        })
        .where(eq(stkRequests.id, request.id));
      return { status: giveUp ? 'failed' : 'pending', outcome: null };
    }
    if (answer.resultCode !== '0') {
      await tx
        .update(stkRequests)
        .set({
          status: endedStatus(answer.resultCode),
          resultCode: answer.resultCode,
          resultDesc: answer.resultDesc,
          queriedAt: sql`now()`,
          queryAttempts: request.queryAttempts + 1,
          settledAt: sql`now()`,
        })
        .where(eq(stkRequests.id, request.id));
      return { status: endedStatus(answer.resultCode), outcome: null };
    }
    const stored = await storeStkPayment(
      tx,
      request,
      { receipt: null, amountCents: request.amountCents, phone: request.phone, transTime: null, raw: { stkQuery: answer } },
      null,
    );
    await tx
      .update(stkRequests)
      .set({
        status: 'paid',
        resultCode: '0',
        resultDesc: answer.resultDesc,
        paymentId: stored.paymentId,
        queriedAt: sql`now()`,
        queryAttempts: request.queryAttempts + 1,
        settledAt: sql`now()`,
      })
      .where(eq(stkRequests.id, request.id));
    return { status: 'paid', outcome: stored.outcome };
  });
  await afterCommit(deps, result.outcome);
  return result.status;
}
