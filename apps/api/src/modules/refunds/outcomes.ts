import { kesFixed, type RefundStatus } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { audit } from '../audit/service.ts';
import { postLedgerEntry } from '../ledger/service.ts';
import { addRefunded, lockPaymentForRefund } from '../mpesa/service.ts';
import { getSetting } from '../settings/service.ts';
import { customerTextFor, queueSms } from '../sms/service.ts';
import { reverseSubscriptionsOfPayment, shortenSubscriptionForRefund } from '../subscriptions/service.ts';
import { queueCreditNote } from '../tax/service.ts';
import * as q from './queries.ts';
import { resultMismatch, type ResultFacts } from './result-check.ts';

/** Every step of a refund is money leaving the business: audited under the "sensitive" filter. */
export const REFUND_AUDIT_ACTIONS = {
  request: 'refund.request',
  approve: 'refund.approve',
  cancel: 'refund.cancel',
  done: 'refund.done',
  failed: 'refund.failed',
  unknown: 'refund.unknown',
  held: 'refund.held',
} as const;

/** An admin's decision on a held or long-unknown refund, after the M-Pesa statement: who, and what it showed. */
export interface AdminDecision {
  actorUserId: number;
  requestId: string;
  note: string;
}

/**
 * Audits a refund's move out of the status it was locked in; `actorUserId` is null when M-Pesa's
 * answer made the move.
 */
export async function auditRefundMove(
  tx: Queryable,
  refund: q.RefundRow,
  move: {
    action: keyof typeof REFUND_AUDIT_ACTIONS;
    after: { status: RefundStatus; [detail: string]: unknown };
    actorUserId: number | null;
    requestId?: string;
  },
): Promise<void> {
  await audit(tx, REFUND_AUDIT_ACTIONS[move.action], refund.id, move, { before: { status: refund.status }, after: move.after });
}

/**
 * What else happens in the transaction that marks a refund done: the sale's tax invoice gets its
 * credit note for the amount returned (none when the payment bought nothing, and none beyond what a
 * cancelled subscription's own credit note already returned), and the customer is told.
 */
export async function afterRefundSucceeded(tx: Queryable, refund: q.RefundRow, payment: { transId: string | null; senderPhone: string | null }) {
  await queueCreditNote(tx, {
    paymentId: refund.paymentId,
    amountCents: refund.amountCents,
    reason: `Refund ${refund.id}`,
    createdBy: refund.approvedBy,
    cause: refund.effect === 'shorten' ? 'shortened' : 'refund',
    refundReason: refund.reason,
  });
  const phone = refund.phone ?? payment.senderPhone;
  if (!phone) return;
  const body = await customerTextFor(tx, phone, 'sms.refund_sent', {
    amount: kesFixed(refund.amountCents),
    receipt: payment.transId ?? '',
    refundReceipt: refund.mpesaReceipt ?? '',
    business: await getSetting(tx, 'portal_business_name'),
  });
  await queueSms(tx, { intent: 'refund.sent', dedupeKey: `refund.sent:${refund.id}`, to: phone, body, createdBy: null });
}

/**
 * M-Pesa says the money went back: in one transaction the refund is done, the payment carries its
 * refunded amount, what it bought ends or shrinks as asked, the payer's account gives the money up,
 * and the customer is told. Only a refund still on its way changes: a repeated answer does nothing.
 * What M-Pesa's result says (`facts`) must match the refund, or it is held for an admin instead and
 * nothing else changes. An admin's decision (`by`) completes a held or unknown refund, audited as theirs.
 */
export async function completeRefund(
  tx: Queryable,
  id: number,
  answer: { receipt: string; resultCode: string; resultDesc: string },
  how: { facts: ResultFacts } | { by: AdminDecision },
): Promise<'done' | 'held' | null> {
  const refund = await q.lockRefund(tx, id);
  const by = 'by' in how ? how.by : null;
  const open = refund !== null && (refund.status === 'sending' || refund.status === 'unknown' || (by !== null && refund.status === 'held'));
  if (!open) return null;
  const payment = (await lockPaymentForRefund(tx, refund.paymentId))!;
  if ('facts' in how) {
    const mismatch = resultMismatch(refund, payment.transId, how.facts);
    if (mismatch) {
      await holdRefund(tx, refund, { ...answer, mismatch });
      return 'held';
    }
  }
  const done = await q.updateRefund(tx, id, {
    status: 'done',
    mpesaReceipt: answer.receipt,
    resultCode: answer.resultCode,
    resultDesc: answer.resultDesc,
    completedAt: new Date(),
  });
  await addRefunded(tx, payment.id, refund.amountCents);
  const note = `Refund ${refund.id} of payment ${payment.transId ?? payment.id}`;
  if (refund.effect === 'cancel' && refund.subscriptionId) {
    await reverseSubscriptionsOfPayment(tx, { paymentId: payment.id, actorUserId: refund.approvedBy, note, refundReason: refund.reason });
  } else if (refund.effect === 'shorten' && refund.subscriptionId) {
    await shortenSubscriptionForRefund(tx, { subscriptionId: refund.subscriptionId, refundCents: refund.amountCents, actorUserId: refund.approvedBy, note });
  }
  // A claimed payment credited someone's account: the money returned leaves that account.
  if (payment.status === 'claimed' && (payment.clientId !== null || payment.subscriberId !== null)) {
    await postLedgerEntry(tx, {
      holder: payment.clientId !== null ? { clientId: payment.clientId } : { subscriberId: payment.subscriberId! },
      amountCents: -refund.amountCents,
      kind: 'refund',
      paymentId: payment.id,
      note,
      createdBy: refund.approvedBy,
    });
  }
  await afterRefundSucceeded(tx, done, payment);
  await auditRefundMove(tx, refund, {
    action: 'done',
    after: {
      status: 'done',
      mpesa_receipt: answer.receipt,
      amount_cents: refund.amountCents,
      payment_id: payment.id,
      ...(by ? { marked_by_admin: true, note: by.note } : {}),
    },
    actorUserId: by?.actorUserId ?? null,
    ...(by ? { requestId: by.requestId } : {}),
  });
  return 'done';
}

/**
 * M-Pesa's result names another amount, receiver or request than the refund's: the refund is held
 * for an admin's review with the mismatch named, never done. The payment, what it bought and the
 * payer's account are untouched until the admin decides; the money stays counted as asked.
 */
async function holdRefund(tx: Queryable, refund: q.RefundRow, answer: { receipt: string; resultCode: string; resultDesc: string; mismatch: string }) {
  await q.updateRefund(tx, refund.id, {
    status: 'held',
    mpesaReceipt: answer.receipt,
    resultCode: answer.resultCode,
    resultDesc: `Held for review: ${answer.mismatch}`,
  });
  await auditRefundMove(tx, refund, {
    action: 'held',
    after: { status: 'held', mpesa_receipt: answer.receipt, mismatch: answer.mismatch, result: answer.resultDesc },
    actorUserId: null,
  });
}

/**
 * M-Pesa refused or could not do it: the refund fails with M-Pesa's words; nothing else changes.
 * An admin's decision (`by`) fails a held or unknown refund the statement shows never went back.
 */
export async function failRefund(tx: Queryable, id: number, answer: { resultCode: string; resultDesc: string }, by?: AdminDecision): Promise<boolean> {
  const refund = await q.lockRefund(tx, id);
  const open = refund !== null && (refund.status === 'sending' || refund.status === 'unknown' || (by !== undefined && refund.status === 'held'));
  if (!open) return false;
  await q.updateRefund(tx, id, { status: 'failed', resultCode: answer.resultCode, resultDesc: answer.resultDesc, completedAt: new Date() });
  await auditRefundMove(tx, refund, {
    action: 'failed',
    after: { status: 'failed', result_code: answer.resultCode, result: answer.resultDesc, ...(by ? { marked_by_admin: true, note: by.note } : {}) },
    actorUserId: by?.actorUserId ?? null,
    ...(by ? { requestId: by.requestId } : {}),
  });
  return true;
}

/** The end is not known (M-Pesa's queue timed out, or the send's answer was lost): a status query will tell. */
export async function markRefundUnknown(tx: Queryable, id: number, why: string): Promise<boolean> {
  const refund = await q.lockRefund(tx, id);
  if (!refund || refund.status !== 'sending') return false;
  await q.updateRefund(tx, id, { status: 'unknown', resultDesc: why });
  await auditRefundMove(tx, refund, { action: 'unknown', after: { status: 'unknown', result: why }, actorUserId: null });
  return true;
}
