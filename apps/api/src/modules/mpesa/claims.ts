import { formatCents, successTextsMpesa, type ClaimPayment, type MpesaTransaction, refusalTexts } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import { announce } from '../events/service.ts';
import { sendCurrentTipOnActivation } from '../tips-sms/service.ts';
import { categoryNamedBy, normaliseAccount, type Payee } from './matching.ts';
import * as claimsQ from './queries/claims.ts';
import * as listsQ from './queries/lists.ts';
import * as matchingQ from './queries/matching.ts';
import * as settlementQ from './queries/settlement.ts';
import { settlePayment, unsettlePayment } from './settle.ts';
import { refuseIfRefunding } from './refunded.ts';

async function lockPayment(tx: Queryable, id: number) {
  const payment = await claimsQ.lockPayment(tx, id);
  if (!payment) throw notFound(refusalTexts.paymentNotFound);
  await refuseIfRefunding(tx, id);
  return payment;
}

async function payeeExists(tx: Queryable, payee: Payee): Promise<void> {
  if ('clientId' in payee) {
    if (!(await matchingQ.liveClientExists(tx, payee.clientId))) throw fieldError('client_id', refusalTexts.clientNoSuch);
  } else if (!(await matchingQ.subscriberExists(tx, payee.subscriberId))) {
    throw fieldError('subscriber_id', refusalTexts.subscriberNoSuch);
  }
}

/**
 * An admin claims an unclaimed payment to a client or subscriber; the payment rules then decide
 * what it buys, in the same transaction, audited. A second claim is a 409, never a double credit.
 */
export async function claimPayment(
  deps: AppDeps,
  actor: Actor,
  body: ClaimPayment,
  requestId: string,
): Promise<{ info: string; transaction: MpesaTransaction }> {
  const payee: Payee = body.client_id !== undefined ? { clientId: body.client_id } : { subscriberId: body.subscriber_id! };
  const after = await deps.db.transaction(async (tx) => {
    const { payment, settled } = await claimAndSettle(tx, body.transaction_id, payee, actor.userId, requestId);
    if (settled.activatedSms) {
      await sendCurrentTipOnActivation(tx, { ...settled.activatedSms, medium: 'sms', createdBy: actor.userId });
    }
    await audit(tx, 'payment.claim', payment.id, byStaff(actor, requestId), {
      before: { status: payment.status },
      after: { status: 'claimed', ...payee, bonus_paid_cents: settled.bonusPaidCents, subscription_id: settled.subscriptionId },
    });
    await announce(tx, { type: 'payment.claimed', payment_id: payment.id, status: 'claimed' });
    return { activatedSms: settled.activatedSms !== null || settled.smsQueued === true, sold: settled.subscriptionId !== null || settled.bonusPaidCents > 0 };
  });
  if (after.activatedSms) await deps.jobs.nudge(QUEUES.smsDispatch);
  if (after.sold) await deps.jobs.nudge(QUEUES.taxInvoices);
  return { info: successTextsMpesa.paymentClaimed, transaction: (await listsQ.paymentById(deps.db, body.transaction_id))! };
}

/**
 * The claim itself, shared by Claim and its preview: the payment is locked and checked, marked
 * claimed to the payee, and settled by the payment rules, in the caller's transaction.
 */
async function claimAndSettle(tx: Queryable, transactionId: number, payee: Payee, actorUserId: number | null, requestId: string | null) {
  const payment = await lockPayment(tx, transactionId);
  if (payment.status === 'claimed') throw conflict(refusalTexts.paymentAlreadyClaimed, 'already_claimed');
  if (payment.status === 'rejected' || payment.amountCents === null) {
    throw conflict(refusalTexts.paymentRejectedPayload, 'rejected');
  }
  await payeeExists(tx, payee);
  await claimsQ.markClaimedByHand(tx, payment.id, payee, actorUserId);
  const category = await categoryNamedBy(tx, normaliseAccount(payment.billRefNumber));
  const settled = await settlePayment(tx, {
    paymentId: payment.id,
    amountCents: payment.amountCents,
    payee,
    betCategoryId: 'subscriberId' in payee ? (category?.id ?? null) : null,
    source: payment.source === 'stk' ? 'stk' : 'mpesa',
    actorUserId,
    ...(requestId ? { requestId } : {}),
  });
  return { payment, settled };
}

/** Thrown to roll the preview's transaction back once its outcome is read. */
class PreviewDone extends Error {}

/**
 * What claiming the payment to this payee would buy: the claim is run by the same payment rules
 * inside a transaction that is then rolled back, so the answer is what the claim itself would do
 * (pending bonuses, the plan or package the amount fits, credit), and nothing is kept or sent.
 */
export async function previewClaim(deps: AppDeps, body: { transaction_id: number; client_id?: number | undefined; subscriber_id?: number | undefined }): Promise<{ buys: string[] }> {
  if ((body.client_id === undefined) === (body.subscriber_id === undefined)) throw fieldError('client_id', refusalTexts.chooseClientOrSubscriber);
  const payee: Payee = body.client_id !== undefined ? { clientId: body.client_id } : { subscriberId: body.subscriber_id! };
  let buys: string[] = [];
  try {
    await deps.db.transaction(async (tx) => {
      const { payment, settled } = await claimAndSettle(tx, body.transaction_id, payee, null, null);
      buys = await describeSettlement(tx, payment.amountCents!, settled.bonusPaidCents, settled.subscriptionId);
      throw new PreviewDone();
    });
  } catch (error) {
    if (!(error instanceof PreviewDone)) throw error;
  }
  return { buys };
}

async function describeSettlement(tx: Queryable, amountCents: number, bonusPaidCents: number, subscriptionId: number | null): Promise<string[]> {
  const lines: string[] = [];
  if (bonusPaidCents > 0) lines.push(`pay ${formatCents(bonusPaidCents)} of unpaid bonuses`);
  let spentCents = bonusPaidCents;
  if (subscriptionId !== null) {
    const bought = await settlementQ.subscriptionBought(tx, subscriptionId);
    if (bought) {
      const days = `${bought.durationDays} day${bought.durationDays === 1 ? '' : 's'}`;
      lines.push(`buy ${bought.pkg ? `the tips package "${bought.pkg}"` : `the Bet4Me plan "${bought.plan ?? ''}"`} (${days}, ${formatCents(bought.amountCents)})`);
      spentCents += bought.amountCents;
    }
  }
  const creditCents = amountCents - spentCents;
  if (creditCents > 0) {
    lines.push(`${lines.length > 0 ? 'leave' : 'put'} ${formatCents(creditCents)} as credit on the account balance${subscriptionId === null ? ' (no plan or package costs exactly this)' : ''}`);
  }
  return lines;
}

/**
 * Undoes a wrong claim (by an admin or by the matching rules): compensating entries reverse what the
 * payment bought and credited, then it waits unclaimed again. Audited with the payee it had.
 */
export async function unclaimPayment(
  deps: AppDeps,
  actor: Actor,
  transactionId: number,
  requestId: string,
): Promise<{ info: string; transaction: MpesaTransaction }> {
  await deps.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, transactionId);
    if (payment.status !== 'claimed' || payment.amountCents === null) {
      throw conflict(refusalTexts.paymentNotClaimed, 'not_claimed');
    }
    const payee: Payee = payment.clientId !== null ? { clientId: payment.clientId } : { subscriberId: payment.subscriberId! };
    await unsettlePayment(tx, { paymentId: payment.id, amountCents: payment.amountCents, payee, actorUserId: actor.userId, requestId });
    await claimsQ.markUnclaimed(tx, payment.id);
    await audit(tx, 'payment.unclaim', payment.id, byStaff(actor, requestId), {
      before: { status: payment.status, ...payee, matched_by: payment.matchedBy, claimed_by: payment.claimedBy, claimed_at: payment.claimedAt },
      after: { status: 'unclaimed' },
    });
    await announce(tx, { type: 'payment.claimed', payment_id: payment.id, status: 'unclaimed' });
  });
  return { info: successTextsMpesa.paymentUnclaimed, transaction: (await listsQ.paymentById(deps.db, transactionId))! };
}
