import { resultMismatch as transferMismatch, type ResultFacts } from '../../integrations/mpesa/results.ts';
import type { RefundRow } from './queries.ts';

export type { ResultFacts } from '../../integrations/mpesa/results.ts';

/**
 * What in M-Pesa's result does not match the refund, in words; null when all it says matches
 * (integrations/mpesa/results.ts, shared with agents' payouts). A Reversal's receipt is the payment's.
 */
export function resultMismatch(refund: RefundRow, paymentReceipt: string | null, said: ResultFacts): string | null {
  return transferMismatch(
    {
      noun: 'refund',
      amountCents: refund.amountCents,
      method: refund.method,
      phone: refund.phone,
      originatorConversationId: refund.originatorConversationId,
      conversationId: refund.conversationId,
      reversedReceipt: paymentReceipt,
    },
    said,
  );
}
