/** What an STK query answers about a request whose callback did not come in time. */
import type { AppDeps } from '../../deps.ts';
import { afterCommit } from './ingest.ts';
import * as q from './queries/payment-requests.ts';
import { endedStatus, storeStkPayment } from './stk-payment.ts';

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
    const request = await q.lockRequest(tx, requestIdOfRow);
    if (!request || request.status !== 'pending') return { status: request?.status ?? 'missing', outcome: null };
    if (answer.resultCode === null) {
      const giveUp = request.queryAttempts + 1 >= maxAttempts;
      await q.recordRequestAnswer(
        tx,
        request.id,
        {
          queryAttempts: request.queryAttempts + 1,
          ...(giveUp ? { status: 'failed' as const, resultDesc: 'M-Pesa never said how the request ended' } : {}),
        },
        { queriedNow: true, settledNow: giveUp },
      );
      return { status: giveUp ? 'failed' : 'pending', outcome: null };
    }
    if (answer.resultCode !== '0') {
      await q.recordRequestAnswer(
        tx,
        request.id,
        { status: endedStatus(answer.resultCode), resultCode: answer.resultCode, resultDesc: answer.resultDesc, queryAttempts: request.queryAttempts + 1 },
        { queriedNow: true, settledNow: true },
      );
      return { status: endedStatus(answer.resultCode), outcome: null };
    }
    const stored = await storeStkPayment(
      tx,
      request,
      { receipt: null, amountCents: request.amountCents, phone: request.phone, transTime: null, raw: { stkQuery: answer } },
      null,
    );
    await q.recordRequestAnswer(
      tx,
      request.id,
      { status: 'paid', resultCode: '0', resultDesc: answer.resultDesc, paymentId: stored.paymentId, queryAttempts: request.queryAttempts + 1 },
      { queriedNow: true, settledNow: true },
    );
    return { status: 'paid', outcome: stored.outcome };
  });
  await afterCommit(deps, result.outcome);
  return result.status;
}
