/**
 * What every arrival of money shares (a C2B confirmation, an STK callback, an STK query's answer):
 * the receipt a webhook answers with, settling a stored payment in a savepoint, the admins' live
 * notice, and the SMS nudge after commit. Each arrival has its own file.
 */
import { centsToKes, type LiveEvent } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { isLostRace, sqlStateOf } from '../../db/conflicts.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { auditEntry } from '../audit/service.ts';
import { announce, announceCommitted } from '../events/service.ts';
import { currentTipOnActivationRiding, sendCurrentTipOnActivation } from '../tips-sms/service.ts';
import type { Payee } from './matching.ts';
import { PURCHASE_WRITES, writeLastStatement } from './purchase-plan.ts';
import * as q from './queries/claims.ts';
import type { KnownPayer } from './receipts.ts';
import { settlePayment, type RequestedItem, type Settlement, type SettlementOutcome } from './settle.ts';

export interface Receipt {
  /** False when the TransID was seen before: acknowledged and ignored. */
  stored: boolean;
  paymentId: number | null;
  status: 'unclaimed' | 'claimed' | 'rejected' | null;
  /** A matched payment's rules failed unexpectedly; it was kept unclaimed, with `notSettledWarning` (and this for the log). */
  settleError?: unknown;
  /** Stored unclaimed for a person to check (e.g. paid to another shortcode). */
  warning?: string | null;
  /** The admins' notice and the job nudges after the commit, when the answer does not wait for them: their error, or null. */
  queued?: Promise<unknown>;
}

/** A payment's claim by its payee: who, how it was matched, what it buys. */
export interface Claim {
  paymentId: number;
  transId?: string | null;
  amountCents: number;
  payee: Payee;
  betCategoryId: number | null;
  source: 'mpesa' | 'stk' | 'ratiba';
  matchedBy: 'account' | 'msisdn' | 'stk' | 'manual';
  requested?: RequestedItem | null;
  /** The payer's full phone when the arrival carried it (null: hidden), for the sale's invoice. */
  buyerPhone?: string | null;
  /** A subscriber payee's name and phone when the match read them (the receipt SMS needs them). */
  payer?: KnownPayer;
  actorUserId: number | null;
  requestId?: string | null;
  /** The payment's credit to the payee was posted with its row, in one statement (a C2B confirmation). */
  credited?: boolean;
  /** The promo code of a paybill account "D2-RADIO10" (`Settlement.promoCode`, decision 086). */
  promoCode?: string | null;
  /** What a tips payment may buy, read with the caller's first read (`Settlement.looked`). */
  looked?: Settlement['looked'];
}

/**
 * What a claim does once the payment row says claimed: what the payment buys, today's tip for an
 * activated SMS package, the audit entry. Run in the savepoint that claimed the row.
 */
export async function applyClaim(sp: Queryable, s: Claim): Promise<SettlementOutcome> {
  const settled = await settlePayment(sp, { ...s, writes: PURCHASE_WRITES });
  const ridingSms = [...(settled.ridingSms ?? [])];
  if (settled.activatedSms) {
    const activation = { ...settled.activatedSms, medium: 'sms' as const, createdBy: s.actorUserId };
    // Today's tip after the receipt: with the sale's invoice when there is one (in one insert, in that order).
    if (settled.saleToInvoice) {
      const tip = await currentTipOnActivationRiding(sp, activation);
      if (tip) ridingSms.push(tip);
    } else {
      await sendCurrentTipOnActivation(sp, activation);
    }
  }
  // The subscription's activation and the claim: one insert (their rows in that order).
  const audits = [
    ...(settled.audits ?? []),
    auditEntry(s.matchedBy === 'manual' ? 'payment.claim' : 'payment.match', s.paymentId, s, {
      before: { status: 'unclaimed' },
      after: { status: 'claimed', ...s.payee, matched_by: s.matchedBy, bonus_paid_cents: settled.bonusPaidCents, subscription_id: settled.subscriptionId },
    }),
  ];
  // Last: the sale's invoice, with the audit rows, the receipt SMS and today's tip (`LastStatement`).
  await writeLastStatement(sp, { invoice: settled.saleToInvoice ?? null, audits, sms: ridingSms });
  return settled;
}

/**
 * Applies a stored payment to its payee in a savepoint: if the rules fail unexpectedly the payment
 * stays stored (unclaimed) instead of being lost with the whole transaction, and carries the reason
 * (`notSettledWarning`) for the admins who claim it by hand. With `lostRaces: 'throw'` a deadlock or
 * serialization failure is thrown instead, for a caller that runs the whole transaction again.
 */
export async function settleStored(
  tx: Queryable,
  s: Claim,
  options: { lostRaces?: 'keep' | 'throw' } = {},
): Promise<{ outcome: SettlementOutcome | null; error?: unknown }> {
  try {
    const outcome = await tx.transaction(async (sp) => {
      await q.markClaimed(sp, s.paymentId, s);
      return applyClaim(sp, s);
    });
    return { outcome };
  } catch (error) {
    if (s.matchedBy === 'manual' || (options.lostRaces === 'throw' && isLostRace(error))) throw error;
    await q.setPaymentWarning(tx, s.paymentId, notSettledWarning(error));
    return { outcome: null, error };
  }
}

/**
 * The warning an automatically matched payment carries when its rules could not settle it
 * (decision 054): kept unclaimed, counted, shown on the payments screen for an admin to claim by
 * hand. It names the kind of failure only (a database code, an error's class), never the error's
 * text, which can quote the statement's values (a phone, a name).
 */
export function notSettledWarning(error: unknown): string {
  const code = sqlStateOf(error);
  const why = isLostRace(error)
    ? `it collided with other payments settling at the same time (database code ${code})`
    : code
      ? `the database refused it (code ${code})`
      : `the rules failed (${error instanceof Error ? error.name : 'unknown error'})`;
  return `Not settled automatically: ${why}. Check it and claim it by hand`;
}

/** What the admins' screens are told of money that arrived. */
export interface PaymentNotice {
  paymentId: number;
  amountCents: number;
  senderName: string | null;
  account: string | null;
  status: string;
}

/** The admins' screens' event of money that arrived. */
function paymentReceived(p: PaymentNotice): LiveEvent {
  return {
    type: 'payment.received',
    payment_id: p.paymentId,
    amount: centsToKes(p.amountCents),
    sender_name: p.senderName,
    account: p.account,
    status: p.status,
  };
}

/** Tells the admins' screens that money arrived (delivered when this transaction commits). */
export function announcePayment(tx: Queryable, p: PaymentNotice): Promise<void> {
  return announce(tx, paymentReceived(p));
}

/** Tells the admins' screens of money whose transaction has committed (with the other requests' notices). */
export function announceCommittedPayment(db: Db, p: PaymentNotice): Promise<void> {
  return announceCommitted(db, paymentReceived(p));
}

export async function afterCommit(deps: AppDeps, outcome: SettlementOutcome | null | undefined): Promise<void> {
  const nudges: Promise<void>[] = [];
  if (outcome?.activatedSms || outcome?.smsQueued) nudges.push(deps.jobs.nudge(QUEUES.smsDispatch));
  // A subscription bought is a sale: its tax invoice was queued with it and leaves now (so may a
  // bonus payment's, when bonuses are invoiced as income).
  if (outcome?.subscriptionId || outcome?.bonusPaidCents) nudges.push(deps.jobs.nudge(QUEUES.taxInvoices));
  await Promise.all(nudges);
}
