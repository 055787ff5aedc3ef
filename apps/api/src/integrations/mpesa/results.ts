/**
 * Reading Daraja's asynchronous answers to money sent out (Reversal, B2C, Transaction Status) and
 * checking them against what was asked. Shared by refunds (decisions 036, 055) and agents' payouts
 * (decision 093): both send by B2C with our OriginatorConversationID and settle on these results.
 * Lives in: apps/api/src/integrations/mpesa/results.ts
 */
import { kesFixed, kesToCents } from '@betdesk/contract';
import { DarajaError } from './daraja.ts';

/** Which Daraja callback: a Reversal or B2C result, its queue time-out, or a Transaction Status result. */
export type DarajaAnswerKind = 'reversal-result' | 'reversal-timeout' | 'b2c-result' | 'b2c-timeout' | 'status-result';

export interface DarajaResult {
  resultCode: string;
  resultDesc: string;
  originatorConversationId: string | null;
  conversationId: string | null;
  transactionId: string | null;
  parameters: Map<string, unknown>;
}

export const resultText = (value: unknown): string | null => (value === undefined || value === null || value === '' ? null : String(value));

/** A ResultParameter under the first of its names Daraja sends (it has spelt some two ways). */
export const resultParam = (result: DarajaResult, ...keys: string[]): unknown => {
  for (const key of keys) if (result.parameters.has(key) && resultText(result.parameters.get(key)) !== null) return result.parameters.get(key);
  return undefined;
};

/** Daraja's `{ Result: { ResultCode, ResultDesc, ..., ResultParameters: { ResultParameter: [{Key, Value}] } } }`. */
export function readResult(body: unknown): DarajaResult | null {
  const result = (body as { Result?: Record<string, unknown> } | null)?.Result;
  if (!result || typeof result !== 'object') return null;
  const raw = (result.ResultParameters as { ResultParameter?: unknown } | undefined)?.ResultParameter;
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const parameters = new Map<string, unknown>();
  for (const p of list as { Key?: unknown; Value?: unknown }[]) if (typeof p?.Key === 'string') parameters.set(p.Key, p.Value);
  return {
    resultCode: String(result.ResultCode ?? ''),
    resultDesc: String(result.ResultDesc ?? ''),
    originatorConversationId: resultText(result.OriginatorConversationID),
    conversationId: resultText(result.ConversationID),
    transactionId: resultText(result.TransactionID),
    parameters,
  };
}

/**
 * The request a Transaction Status result is about: its ResultParameters name the original
 * request (the result's own ids are the query's). Safaricom's current results spell them
 * `OriginatorConversationID` and `ConversationID`; older samples `Originator Conversation ID` and
 * `Conversation ID`. Both are read.
 */
export function queriedRequest(result: DarajaResult) {
  return {
    originatorConversationId: resultText(resultParam(result, 'OriginatorConversationID', 'Originator Conversation ID')),
    conversationId: resultText(resultParam(result, 'ConversationID', 'Conversation ID')),
  };
}

/** The ids an answer is about: a status result's queried request, else the result's own. */
export function answeredRequest(kind: DarajaAnswerKind, result: DarajaResult) {
  return kind === 'status-result'
    ? queriedRequest(result)
    : { originatorConversationId: result.originatorConversationId, conversationId: result.conversationId };
}

/**
 * What a successful M-Pesa result says was done, as Daraja wrote it: the amount paid (KES), the
 * party that received it ("254708374149 - John Doe"), the request it answers and, for a Reversal,
 * the receipt it reversed. Undefined or null: the result does not say.
 */
export interface ResultFacts {
  amount: unknown;
  receiver: unknown;
  originatorConversationId: string | null;
  conversationId: string | null;
  reversedReceipt: string | null;
}

/** What a successful result says was paid, to be checked against what was asked (resultMismatch). */
export function factsOf(kind: DarajaAnswerKind, result: DarajaResult): ResultFacts {
  if (kind === 'status-result') {
    const asked = queriedRequest(result);
    return { amount: resultParam(result, 'Amount'), receiver: resultParam(result, 'CreditPartyName'), ...asked, reversedReceipt: null };
  }
  if (kind === 'reversal-result') {
    return {
      amount: resultParam(result, 'Amount'),
      receiver: resultParam(result, 'CreditPartyPublicName'),
      originatorConversationId: result.originatorConversationId,
      conversationId: result.conversationId,
      reversedReceipt: resultText(resultParam(result, 'OriginalTransactionID')),
    };
  }
  return {
    amount: resultParam(result, 'TransactionAmount'),
    receiver: resultParam(result, 'ReceiverPartyPublicName'),
    originatorConversationId: result.originatorConversationId,
    conversationId: result.conversationId,
    reversedReceipt: null,
  };
}

/**
 * How a B2C or Transaction Status result ends what was sent: paid (ResultCode 0 and a receipt;
 * a status result also says Completed), failed with M-Pesa's words, or nothing said yet.
 */
export type ResultEnd = { end: 'paid'; receipt: string; resultDesc: string } | { end: 'failed'; resultCode: string; resultDesc: string } | { end: 'none' };

export function endOf(kind: DarajaAnswerKind, result: DarajaResult): ResultEnd {
  if (kind === 'status-result') {
    const state = resultText(resultParam(result, 'TransactionStatus'));
    const receipt = resultText(resultParam(result, 'ReceiptNo')) ?? result.transactionId;
    if (result.resultCode === '0' && state === 'Completed' && receipt) {
      return { end: 'paid', receipt, resultDesc: `Completed (Transaction Status): ${result.resultDesc}` };
    }
    if (result.resultCode !== '0' || (state !== null && state !== 'Completed')) {
      const why = result.resultCode !== '0' ? result.resultDesc : `${state}: ${resultText(resultParam(result, 'ReasonType')) ?? ''}`.trim();
      return { end: 'failed', resultCode: result.resultCode, resultDesc: `M-Pesa reports it did not go through: ${why}` };
    }
    return { end: 'none' };
  }
  const receipt = resultText(resultParam(result, 'TransactionReceipt')) ?? result.transactionId;
  if (result.resultCode === '0' && receipt) return { end: 'paid', receipt, resultDesc: result.resultDesc };
  if (result.resultCode !== '0') return { end: 'failed', resultCode: result.resultCode, resultDesc: result.resultDesc || `M-Pesa result ${result.resultCode}` };
  return { end: 'none' };
}

/** The utility account's balance a B2C result reports, in KES (undefined: it does not say). */
export function utilityBalanceOf(kind: DarajaAnswerKind, result: DarajaResult): number | undefined {
  const balance = result.parameters.get('B2CUtilityAccountAvailableFunds');
  return kind === 'b2c-result' && balance !== undefined && Number.isFinite(Number(balance)) ? Number(balance) : undefined;
}

/** A refusal that proves nothing was done (Daraja's 400 validation errors); anything else may have left. */
export function refusedForSure(error: unknown): error is DarajaError {
  return error instanceof DarajaError && error.code !== null && error.code.startsWith('400.') && !/duplicate/i.test(error.message);
}

/** The number a party name starts with, with M-Pesa's mask characters (2547******149) kept. */
function partyNumber(name: unknown): string | null {
  const found = /^\s*([0-9*Xx]{9,15})(?=\s|-|$)/.exec(typeof name === 'string' || typeof name === 'number' ? String(name) : '');
  return found ? found[1]! : null;
}

/** Whether a number M-Pesa shows (perhaps masked, perhaps 07...) can be this E.164 phone. */
function couldBe(shown: string, phone: string): boolean {
  const full = shown.startsWith('0') ? `254${shown.slice(1)}` : shown;
  return full.length === phone.length && [...full].every((c, i) => c === '*' || c === 'x' || c === 'X' || c === phone[i]);
}

/** What was sent, as our row knows it, named in the words an admin reads ("the refund", "the payout"). */
export interface SentTransfer {
  noun: string;
  amountCents: number;
  method: 'b2c' | 'reversal';
  /** B2C's receiver (E.164 digits). */
  phone: string | null;
  originatorConversationId: string;
  conversationId: string | null;
  /** A Reversal's receipt it reverses. */
  reversedReceipt: string | null;
}

/**
 * What in M-Pesa's result does not match what was sent, in words; null when all it says matches.
 * The amount must be said and equal to the cent. A B2C names its receiver (our phone) and our
 * OriginatorConversationID (we set it); a Reversal names the receipt it reversed (M-Pesa returns the
 * money to whoever paid that receipt, and gives the request its own id). Daraja's ConversationID,
 * when both sides know it, must be the one its acknowledgement gave.
 */
export function resultMismatch(sent: SentTransfer, said: ResultFacts): string | null {
  const found: string[] = [];
  const { noun } = sent;
  const amount = said.amount === undefined || said.amount === null || said.amount === '' ? Number.NaN : Number(said.amount);
  if (!Number.isFinite(amount)) found.push(`it names no amount; the ${noun} is KES ${kesFixed(sent.amountCents)}`);
  else if (kesToCents(amount) !== sent.amountCents) {
    found.push(`M-Pesa paid KES ${kesFixed(kesToCents(amount))}; the ${noun} is KES ${kesFixed(sent.amountCents)}`);
  }
  if (sent.method === 'b2c' && sent.phone) {
    const receiver = partyNumber(said.receiver);
    if (receiver !== null && !couldBe(receiver, sent.phone)) found.push(`M-Pesa paid ${receiver}; the ${noun} goes to ${sent.phone}`);
    if (said.originatorConversationId !== null && said.originatorConversationId !== sent.originatorConversationId) {
      found.push(`it answers request ${said.originatorConversationId}; the ${noun} was sent as ${sent.originatorConversationId}`);
    }
  }
  if (sent.method === 'reversal' && said.reversedReceipt !== null && said.reversedReceipt !== sent.reversedReceipt) {
    found.push(`M-Pesa reversed ${said.reversedReceipt}; the ${noun} reverses ${sent.reversedReceipt ?? 'no receipt'}`);
  }
  if (said.conversationId !== null && sent.conversationId !== null && said.conversationId !== sent.conversationId) {
    found.push(`it is conversation ${said.conversationId}; M-Pesa acknowledged the ${noun} as ${sent.conversationId}`);
  }
  return found.length ? found.join('; ') : null;
}
