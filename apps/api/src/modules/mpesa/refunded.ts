import { refusalTexts } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { conflict } from '../../http/errors.ts';
import * as q from './queries/claims.ts';

/** A payment as a refund reads it, locked until the transaction ends (refunds of it queue behind). */
export async function lockPaymentForRefund(tx: Queryable, paymentId: number) {
  return (await q.lockPayment(tx, paymentId)) ?? null;
}

/** The same payment read without a lock (the refund form's preview). */
export async function getPaymentForRefund(db: Queryable, paymentId: number) {
  return (await q.paymentRecord(db, paymentId)) ?? null;
}

/** What a refund M-Pesa confirmed returned of the payment; in the refund's success transaction. */
export async function addRefunded(tx: Queryable, paymentId: number, cents: number): Promise<void> {
  await q.addRefundedCents(tx, paymentId, cents);
}

/**
 * A payment with a refund asked, on its way or done stays where it is: claiming or unclaiming it
 * would credit or take back money that is (being) returned to the payer.
 */
export async function refuseIfRefunding(tx: Queryable, paymentId: number): Promise<void> {
  if (await q.hasLiveRefund(tx, paymentId)) throw conflict(refusalTexts.paymentHasRefund, 'payment_refunded');
}
