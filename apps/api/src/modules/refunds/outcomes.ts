import { kesFixed, type RefundStatus } from '@betdesk/contract';
import { customerTextFor } from '../../customer-texts/texts.ts';
import type { Queryable } from '../../db/client.ts';
import { audit } from '../audit/service.ts';
import { postLedgerEntry } from '../ledger/service.ts';
import { addRefunded, lockPaymentForRefund } from '../mpesa/service.ts';
import { getSetting } from '../settings/service.ts';
import { queueSms } from '../sms/service.ts';
import { reverseSubscriptionsOfPayment, shortenSubscriptionForRefund } from '../subscriptions/service.ts';
import { queueCreditNote } from '../tax/service.ts';
import * as q from './queries.ts';

/** Every step of a refund is money leaving the business: audited under the "sensitive" filter. */
export const REFUND_AUDIT_ACTIONS = {
  request: 'refund.request',
  approve: 'refund.approve',
  cancel: 'refund.cancel',
  done: 'refund.done',
  failed: 'refund.failed',
  unknown: 'refund.unknown',
} as const;

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
 */
export async function completeRefund(tx: Queryable, id: number, answer: { receipt: string; resultCode: string; resultDesc: string }): Promise<boolean> {
  const refund = await q.lockRefund(tx, id);
  if (!refund || (refund.status !== 'sending' && refund.status !== 'unknown')) return false;
  const payment = (await lockPaymentForRefund(tx, refund.paymentId))!;
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
    await reverseSubscriptionsOfPayment(tx, { paymentId: payment.id, actorUserId: refund.approvedBy, note });
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
    after: { status: 'done', mpesa_receipt: answer.receipt, amount_cents: refund.amountCents, payment_id: payment.id },
    actorUserId: null,
  });
  return true;
}

/** M-Pesa refused or could not do it: the refund fails with M-Pesa's words; nothing else changes. */
export async function failRefund(tx: Queryable, id: number, answer: { resultCode: string; resultDesc: string }): Promise<boolean> {
  const refund = await q.lockRefund(tx, id);
  if (!refund || (refund.status !== 'sending' && refund.status !== 'unknown')) return false;
  await q.updateRefund(tx, id, { status: 'failed', resultCode: answer.resultCode, resultDesc: answer.resultDesc, completedAt: new Date() });
  await auditRefundMove(tx, refund, { action: 'failed', after: { status: 'failed', result_code: answer.resultCode, result: answer.resultDesc }, actorUserId: null });
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
