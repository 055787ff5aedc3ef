import type { AppDeps } from '../../deps.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { completeRefund, failRefund, markRefundUnknown } from './outcomes.ts';
import { recordUtilityBalance } from './sending.ts';
import * as q from './queries.ts';
import type { ResultFacts } from './result-check.ts';

/** Which Daraja callback: a Reversal or B2C result, its queue time-out, or a Transaction Status result. */
export type RefundAnswerKind = 'reversal-result' | 'reversal-timeout' | 'b2c-result' | 'b2c-timeout' | 'status-result';

interface DarajaResult {
  resultCode: string;
  resultDesc: string;
  originatorConversationId: string | null;
  conversationId: string | null;
  transactionId: string | null;
  parameters: Map<string, unknown>;
}

const text = (value: unknown): string | null => (value === undefined || value === null || value === '' ? null : String(value));

/** A ResultParameter under the first of its names Daraja sends (it has spelt some two ways). */
const param = (result: DarajaResult, ...keys: string[]): unknown => {
  for (const key of keys) if (result.parameters.has(key) && text(result.parameters.get(key)) !== null) return result.parameters.get(key);
  return undefined;
};

/** Daraja's `{ Result: { ResultCode, ResultDesc, ..., ResultParameters: { ResultParameter: [{Key, Value}] } } }`. */
function readResult(body: unknown): DarajaResult | null {
  const result = (body as { Result?: Record<string, unknown> } | null)?.Result;
  if (!result || typeof result !== 'object') return null;
  const raw = (result.ResultParameters as { ResultParameter?: unknown } | undefined)?.ResultParameter;
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const parameters = new Map<string, unknown>();
  for (const p of list as { Key?: unknown; Value?: unknown }[]) if (typeof p?.Key === 'string') parameters.set(p.Key, p.Value);
  return {
    resultCode: String(result.ResultCode ?? ''),
    resultDesc: String(result.ResultDesc ?? ''),
    originatorConversationId: text(result.OriginatorConversationID),
    conversationId: text(result.ConversationID),
    transactionId: text(result.TransactionID),
    parameters,
  };
}

/**
 * The request a Transaction Status result is about: its ResultParameters name the original
 * request (the result's own ids are the query's). Safaricom's current results spell them
 * `OriginatorConversationID` and `ConversationID`; older samples `Originator Conversation ID` and
 * `Conversation ID`. Both are read.
 */
function queriedRequest(result: DarajaResult) {
  return {
    originatorConversationId: text(param(result, 'OriginatorConversationID', 'Originator Conversation ID')),
    conversationId: text(param(result, 'ConversationID', 'Conversation ID')),
  };
}

/** What a successful result says was paid, to be checked against the refund (result-check.ts). */
function factsOf(kind: RefundAnswerKind, result: DarajaResult): ResultFacts {
  if (kind === 'status-result') {
    const asked = queriedRequest(result);
    return { amount: param(result, 'Amount'), receiver: param(result, 'CreditPartyName'), ...asked, reversedReceipt: null };
  }
  if (kind === 'reversal-result') {
    return {
      amount: param(result, 'Amount'),
      receiver: param(result, 'CreditPartyPublicName'),
      originatorConversationId: result.originatorConversationId,
      conversationId: result.conversationId,
      reversedReceipt: text(param(result, 'OriginalTransactionID')),
    };
  }
  return {
    amount: param(result, 'TransactionAmount'),
    receiver: param(result, 'ReceiverPartyPublicName'),
    originatorConversationId: result.originatorConversationId,
    conversationId: result.conversationId,
    reversedReceipt: null,
  };
}

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
  const status = kind === 'status-result';
  const id = await q.refundForAnswer(deps.db, {
    ...(status ? queriedRequest(result) : { originatorConversationId: result.originatorConversationId, conversationId: result.conversationId }),
    reversedReceipt: kind === 'reversal-result' ? text(param(result, 'OriginalTransactionID')) : null,
  });
  if (id === null) return;

  let nudge = false;
  await deps.db.transaction(async (tx) => {
    if (kind === 'reversal-timeout' || kind === 'b2c-timeout') {
      nudge = await markRefundUnknown(tx, id, `M-Pesa's queue timed out (${result.resultDesc || 'no result'}): asking M-Pesa how it ended`);
      return;
    }
    const facts = { facts: factsOf(kind, result) };
    if (status) {
      const state = text(param(result, 'TransactionStatus'));
      const receipt = text(param(result, 'ReceiptNo')) ?? result.transactionId;
      if (result.resultCode === '0' && state === 'Completed' && receipt) {
        await completeRefund(tx, id, { receipt, resultCode: '0', resultDesc: `Completed (Transaction Status): ${result.resultDesc}` }, facts);
      } else if (result.resultCode !== '0' || (state !== null && state !== 'Completed')) {
        const why = result.resultCode !== '0' ? result.resultDesc : `${state}: ${text(param(result, 'ReasonType')) ?? ''}`.trim();
        await failRefund(tx, id, { resultCode: result.resultCode, resultDesc: `M-Pesa reports it did not go through: ${why}` });
      }
      return;
    }
    const receipt = text(param(result, 'TransactionReceipt')) ?? result.transactionId;
    if (result.resultCode === '0' && receipt) {
      await completeRefund(tx, id, { receipt, resultCode: '0', resultDesc: result.resultDesc }, facts);
    } else if (result.resultCode !== '0') {
      await failRefund(tx, id, { resultCode: result.resultCode, resultDesc: result.resultDesc || `M-Pesa result ${result.resultCode}` });
    }
    const balance = result.parameters.get('B2CUtilityAccountAvailableFunds');
    if (kind === 'b2c-result' && balance !== undefined && Number.isFinite(Number(balance))) {
      await recordUtilityBalance(tx, Number(balance));
    }
  });
  if (nudge) await deps.jobs.nudge(QUEUES.refundSending);
}
