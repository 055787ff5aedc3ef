import { kesFixed, kesToCents } from '@betdesk/contract';
import type { RefundRow } from './queries.ts';

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

/**
 * What in M-Pesa's result does not match the refund, in words; null when all it says matches. The
 * amount must be said and equal to the cent. A B2C names its receiver (the refund's phone) and our
 * OriginatorConversationID (we set it); a Reversal names the receipt it reversed (M-Pesa returns the
 * money to whoever paid that receipt, and gives the request its own id). Daraja's ConversationID,
 * when both sides know it, must be the one its acknowledgement gave.
 */
export function resultMismatch(refund: RefundRow, paymentReceipt: string | null, said: ResultFacts): string | null {
  const found: string[] = [];
  const amount = said.amount === undefined || said.amount === null || said.amount === '' ? Number.NaN : Number(said.amount);
  if (!Number.isFinite(amount)) found.push(`it names no amount; the refund is KES ${kesFixed(refund.amountCents)}`);
  else if (kesToCents(amount) !== refund.amountCents) {
    found.push(`M-Pesa paid KES ${kesFixed(kesToCents(amount))}; the refund is KES ${kesFixed(refund.amountCents)}`);
  }
  if (refund.method === 'b2c' && refund.phone) {
    const receiver = partyNumber(said.receiver);
    if (receiver !== null && !couldBe(receiver, refund.phone)) found.push(`M-Pesa paid ${receiver}; the refund goes to ${refund.phone}`);
    if (said.originatorConversationId !== null && said.originatorConversationId !== refund.originatorConversationId) {
      found.push(`it answers request ${said.originatorConversationId}; the refund was sent as ${refund.originatorConversationId}`);
    }
  }
  if (refund.method === 'reversal' && said.reversedReceipt !== null && said.reversedReceipt !== paymentReceipt) {
    found.push(`M-Pesa reversed ${said.reversedReceipt}; the refund reverses ${paymentReceipt ?? 'no receipt'}`);
  }
  if (said.conversationId !== null && refund.conversationId !== null && said.conversationId !== refund.conversationId) {
    found.push(`it is conversation ${said.conversationId}; M-Pesa acknowledged the refund as ${refund.conversationId}`);
  }
  return found.length ? found.join('; ') : null;
}
