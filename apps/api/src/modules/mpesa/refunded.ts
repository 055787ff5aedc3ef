import { eq, sql } from 'drizzle-orm';
import { mpesaPayments, refunds } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { conflict } from '../../http/errors.ts';

/** A payment as a refund reads it, locked until the transaction ends (refunds of it queue behind). */
export async function lockPaymentForRefund(tx: Queryable, paymentId: number) {
  const [payment] = await tx.select().from(mpesaPayments).where(eq(mpesaPayments.id, paymentId)).for('update');
  return payment ?? null;
}

/** The same payment read without a lock (the refund form's preview). */
export async function getPaymentForRefund(db: Queryable, paymentId: number) {
  const [payment] = await db.select().from(mpesaPayments).where(eq(mpesaPayments.id, paymentId));
  return payment ?? null;
}

/** What a refund M-Pesa confirmed returned of the payment; in the refund's success transaction. */
export async function addRefunded(tx: Queryable, paymentId: number, cents: number): Promise<void> {
  await tx
    .update(mpesaPayments)
    .set({ refundedCents: sql`${mpesaPayments.refundedCents} + ${cents}` })
    .where(eq(mpesaPayments.id, paymentId));
}

/**
 * A payment with a refund asked, on its way or done stays where it is: claiming or unclaiming it
 * would credit or take back money that is (being) returned to the payer.
 */
export async function refuseIfRefunding(tx: Queryable, paymentId: number): Promise<void> {
  const [found] = await tx
    .select({ id: refunds.id })
    .from(refunds)
    .where(sql`${refunds.paymentId} = ${paymentId} and ${refunds.status} not in ('failed', 'cancelled')`)
    .limit(1);
  if (found) throw conflict('This payment has a refund: it can be neither claimed nor unclaimed.', 'payment_refunded');
}
