/**
 * The reply 18 to a paybill receipt that asked for it (decision 066): the phone's payments held for
 * its 18+ declaration are sold when the reply comes within `age_declaration_grace_hours`; a later
 * reply leaves them kept for a refund, and so does a sale block that began meanwhile.
 */
import type { Queryable } from '../../db/client.ts';
import { saleBlockOf } from '../../db/sale-blocks.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import type { AppDeps } from '../../deps.ts';
import { AGE_REPLY_LATE_WARNING, heldPaymentsOf, markHeldSold, markHeldUnsold } from '../compliance/service.ts';
import { keepRefusedPayment, refusedPaymentWarning } from '../exclusions/service.ts';
import { getSetting } from '../settings/service.ts';
import { sellHeldPayment } from './c2b-confirmation.ts';
import { afterCommit } from './ingest.ts';
import * as q from './queries/claims.ts';
import type { SettlementOutcome } from './settle.ts';

export interface AgeReplySales {
  sold: SettlementOutcome[];
  /** Receipts of the held payments the reply came too late for (kept for a refund). */
  late: string[];
  graceHours: number;
}

/** In the reply's transaction: each held payment of the phone sold, or kept for its refund. */
export async function sellPaymentsHeldForAge(tx: Queryable, phone: string, requestId: string | null): Promise<AgeReplySales> {
  const graceHours = await getSetting(tx, 'age_declaration_grace_hours');
  const answer: AgeReplySales = { sold: [], late: [], graceHours };
  const held = await heldPaymentsOf(tx, phone, graceHours);
  if (held.length === 0) return answer;
  const block = await saleBlockOf(tx, phone);
  for (const h of held) {
    if (block) {
      // Excluded (or marked under 18) since it was paid: kept for a refund, as any blocked payment is.
      const p = await q.lockPayment(tx, h.paymentId);
      if (p?.status === 'unclaimed') {
        await q.setPaymentWarning(tx, h.paymentId, refusedPaymentWarning(block));
        await keepRefusedPayment(tx, { paymentId: h.paymentId, phone, phoneHash: sha256Hex(phone), block, amountCents: p.amountCents ?? 0, receipt: p.transId });
      }
      await markHeldUnsold(tx, h.paymentId);
    } else if (!h.inGrace) {
      const p = await q.lockPayment(tx, h.paymentId);
      if (p?.status === 'unclaimed') {
        await q.setPaymentWarning(tx, h.paymentId, AGE_REPLY_LATE_WARNING);
        answer.late.push(p.transId ?? '');
      }
      await markHeldUnsold(tx, h.paymentId);
    } else {
      const outcome = await sellHeldPayment(tx, h.paymentId, requestId);
      if (outcome) {
        await markHeldSold(tx, h.paymentId);
        answer.sold.push(outcome);
      }
    }
  }
  return answer;
}

/** After the reply's commit: what the sales queued (receipts, invoices) is nudged. */
export async function afterAgeReplySales(deps: AppDeps, sales: AgeReplySales): Promise<void> {
  for (const outcome of sales.sold) await afterCommit(deps, outcome);
}
