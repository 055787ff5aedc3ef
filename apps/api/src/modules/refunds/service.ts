import {
  centsToKes,
  kesFixed,
  kesToCents,
  refundTexts,
  type Refund,
  type RefundForm,
  type RefundPreview,
  type RefundMethod,
  type RefundReason,
  type RefundEffect,
  type RefundStatus,
  refusalTexts,
} from '@betdesk/contract';
import type { z } from 'zod';
import type { RefundListQuery } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, conflict, fieldError, notFound } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { pageOf } from '../../db/list.ts';
import { csvDateTime, queryBatches, type CsvTable } from '../../http/csv.ts';
import { audit, byStaff } from '../audit/service.ts';
import { acceptStepUpCode } from '../auth/service.ts';
import { getPaymentForRefund, lockPaymentForRefund } from '../mpesa/service.ts';
import { getSetting } from '../settings/service.ts';
import { adminCoolingOffUntil, adminsTied, coolingOffEnd } from '../users/service.ts';
import { initiatorReady, utilityBalance } from './sending.ts';
import { auditRefundMove, REFUND_AUDIT_ACTIONS } from './outcomes.ts';
import * as q from './queries.ts';

export { runRefundSending, saveInitiator, utilityBalanceGauge } from './sending.ts';
export { receiveRefundAnswer } from './answers.ts';
export { afterRefundSucceeded } from './outcomes.ts';


function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? new Date(value).toISOString() : value.toISOString();
}

export function refundOf(r: q.RefundListRow): Refund {
  return {
    id: Number(r.id),
    payment_id: Number(r.payment_id),
    trans_id: r.trans_id,
    amount: centsToKes(r.amount_cents),
    reason: r.reason as RefundReason,
    note: r.note,
    method: r.method as RefundMethod,
    effect: r.effect as RefundEffect,
    status: r.status as RefundStatus,
    requested_by: r.requested_by,
    approved_by: r.approved_by,
    mpesa_receipt: r.mpesa_receipt,
    result: r.result_desc,
    created_at: iso(r.created_at)!,
    completed_at: iso(r.completed_at),
  };
}

async function shownRefund(db: Queryable, id: number): Promise<Refund> {
  const row = await q.refundById(db, id);
  if (!row) throw notFound(refusalTexts.refundNotFound);
  return refundOf(row);
}

/**
 * An admin asks to return (part of) a payment. The payment is locked while what is left is
 * counted, so two admins asking at once cannot together pass its amount.
 */
export async function requestRefund(
  deps: AppDeps,
  actor: Actor,
  form: RefundForm,
  requestId: string,
): Promise<{ info: string; refund: Refund }> {
  const amountCents = kesToCents(form.amount);
  const id = await deps.db.transaction(async (tx) => {
    const payment = await lockPaymentForRefund(tx, form.payment_id);
    if (!payment || payment.amountCents === null || payment.status === 'rejected' || !payment.transId) {
      throw fieldError('payment_id', refundTexts.notRefundable);
    }
    const left = payment.amountCents - (await q.committedCents(tx, payment.id));
    if (amountCents > left) throw fieldError('amount', refundTexts.moreThanLeft(kesFixed(Math.max(left, 0))));
    // Reversal undoes the whole transaction (docs/INTEGRATIONS.md); part of one goes by B2C.
    if (form.method === 'reversal' && amountCents !== payment.amountCents) throw fieldError('method', refundTexts.reversalWholeOnly);
    if (form.method === 'b2c' && (payment.msisdnKind !== 'plain' || !payment.senderPhone)) {
      throw fieldError('method', refundTexts.maskedPayer);
    }
    const bought = await q.subscriptionBoughtBy(tx, payment.id);
    if (form.effect !== 'none' && !bought) throw fieldError('effect', refusalTexts.refundBoughtNothing);
    const refund = await q.insertRefund(tx, {
      paymentId: payment.id,
      amountCents,
      reason: form.reason,
      note: form.note ?? null,
      method: form.method,
      effect: form.effect,
      subscriptionId: form.effect === 'none' ? null : bought!.id,
      phone: form.method === 'b2c' ? payment.senderPhone : null,
      requestedBy: actor.userId,
      originatorConversationId: `betdesk-refund-${payment.id}-${crypto.randomUUID()}`,
    });
    await audit(tx, REFUND_AUDIT_ACTIONS.request, refund.id, byStaff(actor, requestId), {
      after: { payment_id: payment.id, amount_cents: amountCents, reason: form.reason, method: form.method, effect: form.effect },
    });
    return refund.id;
  });
  return { info: refundTexts.requested, refund: await shownRefund(deps.db, id) };
}

/**
 * What the refund form shows of a payment: what is left to ask, whether a Reversal (the whole
 * payment, nothing of it asked yet) or a B2C (a phone M-Pesa gave plainly) can return it, and the
 * running subscription or plan it bought. The same rules requestRefund enforces.
 */
export async function previewRefund(deps: AppDeps, paymentId: number): Promise<RefundPreview> {
  const payment = await getPaymentForRefund(deps.db, paymentId);
  if (!payment || payment.amountCents === null || payment.status === 'rejected' || !payment.transId) {
    throw fieldError('payment_id', refundTexts.notRefundable);
  }
  const committed = await q.committedCents(deps.db, payment.id);
  const left = Math.max(payment.amountCents - committed, 0);
  const payerPhone = payment.msisdnKind === 'plain' && payment.senderPhone ? payment.senderPhone : null;
  const bought = await q.purchaseOf(deps.db, payment.id);
  return {
    payment_id: payment.id,
    trans_id: payment.transId,
    amount: centsToKes(payment.amountCents),
    refunded_amount: centsToKes(payment.refundedCents),
    left: centsToKes(left),
    payer_phone: payerPhone,
    reversal: committed === 0,
    b2c: payerPhone !== null && left > 0,
    bought: bought && {
      what: `${bought.pkg ? `Tips package "${bought.pkg}"` : `Bet4Me plan "${bought.plan ?? ''}"`}, ${bought.durationDays} day${bought.durationDays === 1 ? '' : 's'}`,
      amount: centsToKes(bought.amountCents),
      starts_at: bought.startsAt.toISOString(),
      expires_at: bought.expiresAt.toISOString(),
    },
  };
}

/**
 * A second admin approves with a fresh code from their authenticator, even inside their session.
 * Past the day's limit the refund waits for a further admin. Approved, it queues the sending job.
 */
export async function approveRefund(
  deps: AppDeps,
  actor: Actor,
  id: number,
  code: string,
  requestId: string,
): Promise<{ info: string; refund: Refund }> {
  if (!(await initiatorReady(deps))) {
    throw conflict(refusalTexts.refundsNotSetUp, 'refunds_not_configured');
  }
  const outcome = await deps.db.transaction(async (tx) => {
    // One approval at a time: the day's total read below is the one the next approval sees.
    await q.waitForOtherApprovals(tx);
    const refund = await q.lockRefund(tx, id);
    if (!refund) throw notFound(refusalTexts.refundNotFound);
    if (refund.requestedBy === actor.userId) throw new AppError(403, refundTexts.ownRequest, { code: 'own_refund' });
    if (refund.status !== 'awaiting_approval' && refund.status !== 'awaiting_second_approval') {
      throw conflict(refundTexts.notAwaiting, 'refund_not_awaiting');
    }
    if (refund.status === 'awaiting_second_approval' && refund.approvedBy === actor.userId) {
      throw new AppError(403, refundTexts.alreadyApproved, { code: 'already_approved' });
    }
    // The two persons must be two people (decision 056): never an admin whose rights come from the
    // requester's (or the first approver's) or who gave them theirs, nor a new admin still cooling off.
    if (await adminsTied(tx, actor.userId, refund.requestedBy)) {
      throw new AppError(403, refundTexts.tiedToRequester, { code: 'tied_admin' });
    }
    if (refund.status === 'awaiting_second_approval' && refund.approvedBy !== null && (await adminsTied(tx, actor.userId, refund.approvedBy))) {
      throw new AppError(403, refundTexts.tiedToFirstApprover, { code: 'tied_admin' });
    }
    const coolingOff = await adminCoolingOffUntil(tx, actor.userId);
    if (coolingOff) throw new AppError(403, refundTexts.coolingOff(coolingOffEnd(coolingOff)), { code: 'admin_cooling_off' });
    const step = await acceptStepUpCode(deps, tx, actor.userId, code);
    if (step === 'none') throw fieldError('code', refundTexts.noSecondFactor);
    if (step === 'wrong') return { wrongCode: true as const };

    let status: RefundStatus = 'sending';
    if (refund.status === 'awaiting_approval') {
      const limitCents = kesToCents(await getSetting(tx, 'refund_daily_limit_kes'));
      if ((await q.approvedTodayCents(tx)) + refund.amountCents > limitCents) status = 'awaiting_second_approval';
    }
    await q.updateRefund(
      tx,
      id,
      refund.status === 'awaiting_approval'
        ? { status, approvedBy: actor.userId, approvedAt: new Date() }
        : { status, secondApprovedBy: actor.userId, approvedAt: new Date() },
    );
    await auditRefundMove(tx, refund, { action: 'approve', after: { status, amount_cents: refund.amountCents }, actorUserId: actor.userId, requestId });
    return { wrongCode: false as const, status };
  });
  // Refused outside the transaction so that the code's time step stays taken only when it was right.
  if (outcome.wrongCode) throw fieldError('code', refundTexts.wrongCode);
  if (outcome.status === 'sending') await deps.jobs.nudge(QUEUES.refundSending);
  return {
    info: outcome.status === 'sending' ? refundTexts.approved : refundTexts.needsSecondApproval,
    refund: await shownRefund(deps.db, id),
  };
}

/** Either admin may cancel a refund until it is approved for sending. */
export async function cancelRefund(deps: AppDeps, actor: Actor, id: number, requestId: string): Promise<{ info: string; refund: Refund }> {
  await deps.db.transaction(async (tx) => {
    const refund = await q.lockRefund(tx, id);
    if (!refund) throw notFound(refusalTexts.refundNotFound);
    if (refund.status !== 'awaiting_approval' && refund.status !== 'awaiting_second_approval') {
      throw conflict(refundTexts.notAwaiting, 'refund_not_awaiting');
    }
    await q.updateRefund(tx, id, { status: 'cancelled', cancelledBy: actor.userId, completedAt: new Date() });
    await auditRefundMove(tx, refund, { action: 'cancel', after: { status: 'cancelled' }, actorUserId: actor.userId, requestId });
  });
  return { info: refundTexts.cancelled, refund: await shownRefund(deps.db, id) };
}

const refundColumns: CsvTable<Refund>['columns'] = [
  { header: 'Refund', value: (r) => r.id },
  { header: 'Payment Ref', value: (r) => r.trans_id },
  { header: 'Amount (KES)', value: (r) => r.amount },
  { header: 'Reason', value: (r) => r.reason },
  { header: 'Note', value: (r) => r.note },
  { header: 'Method', value: (r) => r.method },
  { header: 'Status', value: (r) => r.status },
  { header: 'Requested By', value: (r) => r.requested_by },
  { header: 'Approved By', value: (r) => r.approved_by },
  { header: 'M-Pesa Receipt', value: (r) => r.mpesa_receipt },
  { header: 'Result', value: (r) => r.result },
  { header: 'Asked On', value: (r) => csvDateTime(r.created_at) },
  { header: 'Completed On', value: (r) => csvDateTime(r.completed_at) },
];

export function refundsCsv(deps: AppDeps, filter: q.RefundFilter): CsvTable<Refund> {
  return { filename: 'refunds', columns: refundColumns, rows: queryBatches(deps.database, q.refundsForExport(filter), refundOf) };
}

/** KES (cents) refunds returned per Nairobi day they were done, within the days: the reports' refunds line. */
export async function refundedByDay(db: Queryable, days: { from: string; to: string }): Promise<{ day: string; cents: number }[]> {
  const found = await q.doneByDay(db, days);
  return found.map((r) => ({ day: r.day, cents: Number(r.cents) }));
}

export async function listRefunds(deps: AppDeps, query: z.output<typeof RefundListQuery>) {
  const [page, totals, balance] = await Promise.all([
    q.refundPage(deps.db, query, pageOf(query)),
    q.refundTotals(deps.db, query),
    utilityBalance(deps.db),
  ]);
  return {
    refunds: page.map(refundOf),
    total_records: totals.count,
    total_amount: centsToKes(totals.cents),
    utility_balance: balance,
  };
}

