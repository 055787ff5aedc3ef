import { nairobiDayOf } from '@betdesk/contract';
import type { Scope } from '../../db/scope.ts';
import { summed } from '../../db/summaries.ts';
import type { Queryable } from '../../db/client.ts';
export { amountToCents } from './c2b-payload.ts';
import { INCOME_KEYS } from '../../db/money.ts';
import * as q from './queries/lists.ts';

/**
 * Income is money received by M-Pesa (every stored payment but rejected payloads), in cents;
 * "today" is the Africa/Nairobi business day. Read from the day summaries.
 */
export async function incomeTotals(db: Queryable): Promise<{ todayCents: number; totalCents: number }> {
  const today = nairobiDayOf(new Date());
  const [total, todays] = await Promise.all([
    summed(db, INCOME_KEYS),
    summed(db, INCOME_KEYS, { from: today, to: today }),
  ]);
  return { todayCents: todays.amount_cents, totalCents: total.amount_cents };
}


export interface RecentPayment {
  name: string;
  phone: string | null;
  /** M-Pesa's masked number (2547 ***** 465) when it sent no phone: what /mpesa shows too. */
  maskedMsisdn: string | null;
  transactionReference: string;
  time: Date;
  amountCents: number;
}

/**
 * The newest payments for the dashboard: who paid (the client or subscriber it is claimed to, else
 * the sender's name), their phone when known, the M-Pesa receipt, when and how much, read newest
 * first off mpesa_payments_paid_idx. A staff member's scope narrows to the payments of their clients.
 */
export async function recentPayments(
  db: Queryable,
  options: { limit: number; scope: Scope },
): Promise<RecentPayment[]> {
  const found = await q.recentPaymentRows(db, options);
  return found.map((p) => ({
    name: p.name,
    phone: p.phone,
    maskedMsisdn: p.masked_msisdn,
    transactionReference: p.reference,
    time: new Date(p.time),
    amountCents: Number(p.amount_cents),
  }));
}

export { receiveC2bConfirmation, storeC2bConfirmation } from './c2b-confirmation.ts';
export { receiveStkCallback } from './stk-callback.ts';
export { afterAgeReplySales, sellPaymentsHeldForAge, type AgeReplySales } from './age-replies.ts';
export { recheckPendingRequests } from './payment-requests.ts';
export { addRefunded, getPaymentForRefund, lockPaymentForRefund } from './refunded.ts';

export { categoryPricesText } from './receipts.ts';
export { requestCheapestSmsPackage, requestPackagePayment } from './payment-requests.ts';
