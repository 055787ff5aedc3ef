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
  type ResolveRefundForm,
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
import { acceptStepUpCode } from '../second-factor/service.ts';
import { getPaymentForRefund, lockPaymentForRefund } from '../mpesa/service.ts';
import { getSetting } from '../settings/service.ts';
import { adminCoolingOffUntil, adminsTied, coolingOffEnd } from '../users/service.ts';
import { initiatorReady, utilityBalance } from './sending.ts';
import { auditRefundMove, completeRefund, failRefund, REFUND_AUDIT_ACTIONS } from './outcomes.ts';
import * as q from './queries.ts';

export { initiatorOf, initiatorReady, recordUtilityBalance, runB2cQueue, runRefundSending, saveInitiator, utilityBalanceGauge, type B2cQueue } from './sending.ts';
export { receiveRefundAnswer } from './answers.ts';
export { afterRefundSucceeded } from './outcomes.ts';


function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? new Date(value).toISOString() : value.toISOString();
}

/** What an admin must do about a refund, in words: held for review, or unknown past the limit. */
function attentionOf(r: q.RefundListRow, alertHours: number): string | null {
  if (r.status === 'held') return refundTexts.heldForReview((r.result_desc ?? '').replace(/^Held for review: /, ''));
  if (r.status === 'unknown' && r.past_limit) return refundTexts.unknownTooLong(alertHours);
  return null;
}

export function refundOf(r: q.RefundListRow, alertHours: number): Refund {
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
    attention: attentionOf(r, alertHours),
    created_at: iso(r.created_at)!,
    completed_at: iso(r.completed_at),
  };
}

async function shownRefund(db: Queryable, id: number): Promise<Refund> {
  const alertHours = await getSetting(db, 'refund_unknown_alert_hours');
  const row = await q.refundById(db, id, alertHours);
  if (!row) throw notFound(refusalTexts.refundNotFound);
  return refundOf(row, alertHours);
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
    // B2C's Amount is whole shillings: a refund with cents would go out rounded, more or less than asked.
    if (form.method === 'b2c' && amountCents % 100 !== 0) throw fieldError('amount', refundTexts.wholeShillings);
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

/**
 * An admin decides a refund M-Pesa's answers could not settle, after reading the M-Pesa statement:
 * one held for review (its result did not match), or one still unknown past
 * `refund_unknown_alert_hours`. Done completes it as M-Pesa's result would (the statement's receipt
 * when M-Pesa gave none); failed returns nothing and frees the amount to be asked again. The note
 * (what the statement showed) and the admin are in the audit row.
 */
export async function resolveRefund(
  deps: AppDeps,
  actor: Actor,
  id: number,
  form: ResolveRefundForm,
  requestId: string,
): Promise<{ info: string; refund: Refund }> {
  const alertHours = await getSetting(deps.db, 'refund_unknown_alert_hours');
  await deps.db.transaction(async (tx) => {
    const refund = await q.lockRefund(tx, id);
    if (!refund) throw notFound(refusalTexts.refundNotFound);
    if (refund.status === 'unknown' && !(await q.isUnknownPastLimit(tx, id, alertHours))) {
      throw conflict(refundTexts.stillAsking(alertHours), 'refund_still_asking');
    }
    if (refund.status !== 'unknown' && refund.status !== 'held') throw conflict(refundTexts.notToResolve, 'refund_not_to_resolve');
    const by = { actorUserId: actor.userId, requestId, note: form.note };
    if (form.outcome === 'failed') {
      await failRefund(tx, id, { resultCode: refund.resultCode ?? '', resultDesc: `Marked failed by an admin: ${form.note}` }, by);
      return;
    }
    const receipt = form.receipt || refund.mpesaReceipt;
    if (!receipt) throw fieldError('receipt', refundTexts.receiptRequired);
    await completeRefund(tx, id, { receipt, resultCode: refund.resultCode ?? '', resultDesc: `Marked done by an admin: ${form.note}` }, { by });
  });
  return { info: form.outcome === 'done' ? refundTexts.markedDone : refundTexts.markedFailed, refund: await shownRefund(deps.db, id) };
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
  { header: 'Needs An Admin', value: (r) => r.attention },
  { header: 'Asked On', value: (r) => csvDateTime(r.created_at) },
  { header: 'Completed On', value: (r) => csvDateTime(r.completed_at) },
];

export async function refundsCsv(deps: AppDeps, filter: q.RefundFilter): Promise<CsvTable<Refund>> {
  const alertHours = await getSetting(deps.db, 'refund_unknown_alert_hours');
  return {
    filename: 'refunds',
    columns: refundColumns,
    rows: queryBatches(deps.database, q.refundsForExport(filter, alertHours), (r: q.RefundListRow) => refundOf(r, alertHours)),
  };
}

/** KES (cents) refunds returned per Nairobi day they were done, within the days: the reports' refunds line. */
export async function refundedByDay(db: Queryable, days: { from: string; to: string }): Promise<{ day: string; cents: number }[]> {
  const found = await q.doneByDay(db, days);
  return found.map((r) => ({ day: r.day, cents: Number(r.cents) }));
}

export async function listRefunds(deps: AppDeps, query: z.output<typeof RefundListQuery>) {
  const alertHours = await getSetting(deps.db, 'refund_unknown_alert_hours');
  const [page, totals, balance] = await Promise.all([
    q.refundPage(deps.db, query, pageOf(query), alertHours),
    q.refundTotals(deps.db, query, alertHours),
    utilityBalance(deps.db),
  ]);
  return {
    refunds: page.map((r) => refundOf(r, alertHours)),
    total_records: totals.count,
    refunded_amount: centsToKes(totals.refundedCents),
    asked_amount: centsToKes(totals.askedCents),
    failed_amount: centsToKes(totals.failedCents),
    needs_admin: totals.needsAdmin,
    utility_balance: balance,
  };
}

