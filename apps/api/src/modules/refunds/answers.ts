import type { AppDeps } from '../../deps.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { completeRefund, failRefund, markRefundUnknown } from './outcomes.ts';
import { recordUtilityBalance } from './sending.ts';
import * as q from './queries.ts';
import { answeredRequest, endOf, factsOf, readResult, resultParam, resultText, utilityBalanceOf, type DarajaAnswerKind } from '../../integrations/mpesa/results.ts';

/** Which Daraja callback: a Reversal or B2C result, its queue time-out, or a Transaction Status result. */
export type RefundAnswerKind = DarajaAnswerKind;

/**
 * One callback of Reversal, B2C or Transaction Status. Only a result with ResultCode 0 and a receipt
 * whose amount, receiver and request match the refund completes it; one that does not match holds
 * it for an admin's review; any other result fails it with M-Pesa's words; a time-out makes it
 * unknown (the job then asks Transaction Status). Every change happens once, under the refund's row
 * lock, however often or concurrently Daraja repeats itself. Unknown or unreadable answers are acknowledged.
 */
export async function receiveRefundAnswer(deps: AppDeps, kind: RefundAnswerKind, body: unknown): Promise<void> {
  const result = readResult(body);
  if (!result) return;
  const id = await q.refundForAnswer(deps.db, {
    ...answeredRequest(kind, result),
    reversedReceipt: kind === 'reversal-result' ? resultText(resultParam(result, 'OriginalTransactionID')) : null,
  });
  if (id === null) return;

  let nudge = false;
  await deps.db.transaction(async (tx) => {
    if (kind === 'reversal-timeout' || kind === 'b2c-timeout') {
      nudge = await markRefundUnknown(tx, id, `M-Pesa's queue timed out (${result.resultDesc || 'no result'}): asking M-Pesa how it ended`);
      return;
    }
    const said = endOf(kind, result);
    if (said.end === 'paid') {
      await completeRefund(tx, id, { receipt: said.receipt, resultCode: '0', resultDesc: said.resultDesc }, { facts: factsOf(kind, result) });
    } else if (said.end === 'failed') {
      await failRefund(tx, id, { resultCode: said.resultCode, resultDesc: said.resultDesc });
    }
    const balance = utilityBalanceOf(kind, result);
    if (balance !== undefined) await recordUtilityBalance(tx, balance);
  });
  if (nudge) await deps.jobs.nudge(QUEUES.refundSending);
}
