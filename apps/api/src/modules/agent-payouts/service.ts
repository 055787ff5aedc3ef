/**
 * Agents' monthly payouts (decision 093). For a closed Nairobi month, each agent whose balance
 * (the month's commission lines plus what earlier months carried) reaches a whole shilling gets
 * one payout, asked by one admin and approved by another exactly as a refund is (never the
 * requester, nor an admin tied to them, nor one cooling off; a fresh authenticator code). The
 * refund job sends it once by M-Pesa B2C to the agent's phone with the refunds' initiator; M-Pesa's
 * result (its own ResultURLs) makes it paid or failed, a time-out makes it unknown until a
 * Transaction Status query answers. Paid: the statement SMS, once. Failed: the amount is the
 * agent's again and carries to the next payout.
 * Lives in: apps/api/src/modules/agent-payouts/service.ts
 */
import { agentPayoutTexts, centsToKes, kesFixed, type AgentPayout, type AgentPayoutStatus, type PageQuery } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, conflict, fieldError, notFound } from '../../http/errors.ts';
import { type DarajaClient, type Initiator } from '../../integrations/mpesa/daraja.ts';
import {
  answeredRequest,
  endOf,
  factsOf,
  readResult,
  refusedForSure,
  resultMismatch,
  utilityBalanceOf,
  type DarajaAnswerKind,
  type ResultFacts,
} from '../../integrations/mpesa/results.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import { accrueCommissions } from '../referrals/service.ts';
import { initiatorReady, recordUtilityBalance, runB2cQueue } from '../refunds/service.ts';
import { acceptStepUpCode } from '../second-factor/service.ts';
import { getSetting } from '../settings/service.ts';
import { customerTextFor, queueSms } from '../sms/service.ts';
import { adminCoolingOffUntil, adminsTied, coolingOffEnd } from '../users/service.ts';
import * as q from './queries.ts';

/** The SMS intent of a paid payout's statement. */
export const PAYOUT_PAID_INTENT = 'agent.payout-paid';

const nairobiMonth = (at: Date) => new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 7);

function payoutOf(r: q.PayoutListRow): AgentPayout {
  return {
    id: Number(r.id),
    agent_id: Number(r.agent_id),
    agent_name: r.agent_name,
    phone: r.phone,
    month: r.month,
    commissions: centsToKes(Number(r.commissions_cents)),
    carried: centsToKes(Number(r.carried_cents)),
    amount: centsToKes(Number(r.amount_cents)),
    status: r.status,
    requested_by: r.requested_by,
    requested_by_id: Number(r.requested_by_id),
    approved_by: r.approved_by,
    mpesa_receipt: r.mpesa_receipt,
    result: r.result_desc,
    created_at: iso(r.created_at),
    completed_at: r.completed_at === null ? null : iso(r.completed_at),
  };
}

async function shownPayout(db: Queryable, id: number): Promise<AgentPayout> {
  const [row] = await q.payoutsById(db, [id]);
  if (!row) throw notFound(agentPayoutTexts.notFound);
  return payoutOf(row);
}

export async function listPayouts(deps: AppDeps, query: PageQuery & { status?: AgentPayoutStatus | undefined }) {
  const { found, total } = await q.payoutPage(deps.db, { status: query.status }, { limit: query.perPage, offset: (query.page - 1) * query.perPage });
  return { total_records: total, payouts: found.map(payoutOf) };
}

/**
 * A closed month's payouts. The ledger is brought up to date first; then, one run at a time, each
 * agent's balance is the lines of the month and before less every payout not failed: at a
 * shilling or more its whole shillings are asked (the cents stay, and carry), under a shilling or
 * negative it carries to the next payout. An agent's month is asked once (the unique index): a
 * second call creates nothing new and says so.
 */
export async function makePayouts(deps: AppDeps, actor: Actor, month: string, requestId: string) {
  if (month >= nairobiMonth(new Date())) throw fieldError('month', agentPayoutTexts.monthNotClosed);
  await accrueCommissions(deps.db);
  const counts = await deps.db.transaction(async (tx) => {
    await q.waitForOtherRuns(tx);
    let created = 0;
    let already = 0;
    let carried = 0;
    for (const b of await q.balances(tx, month)) {
      if (b.asked) {
        already += 1;
        continue;
      }
      const balance = Number(b.upto_cents) - Number(b.paid_cents);
      const monthCents = Number(b.month_cents);
      // B2C's Amount is whole shillings: the cents under one stay the agent's for the next payout.
      const amountCents = Math.floor(balance / 100) * 100;
      if (amountCents <= 0) {
        carried += 1;
        continue;
      }
      const id = await q.insertPayout(tx, {
        agentId: Number(b.agent_id),
        month,
        commissionsCents: monthCents,
        carriedCents: balance - monthCents,
        amountCents,
        phone: b.phone,
        requestedBy: actor.userId,
        originatorConversationId: `betdesk-payout-${b.agent_id}-${month}-${crypto.randomUUID()}`,
      });
      if (id === null) {
        already += 1;
        continue;
      }
      await audit(tx, 'agent-payout.request', id, byStaff(actor, requestId), {
        after: { agent_id: Number(b.agent_id), month, commissions_cents: monthCents, carried_cents: balance - monthCents, amount_cents: amountCents },
      });
      created += 1;
    }
    return { created, already, carried };
  });
  const payouts = (await q.payoutsOfMonth(deps.db, month)).map(payoutOf);
  return { info: agentPayoutTexts.made(counts.created, counts.already, counts.carried), ...counts, payouts };
}

/**
 * A second admin approves a payout with a fresh code from their authenticator, refused as a
 * refund's approver is (decision 056). Approved, it queues the refund job, which sends payouts too.
 */
export async function approvePayout(deps: AppDeps, actor: Actor, id: number, code: string, requestId: string) {
  if (!(await initiatorReady(deps))) throw conflict(agentPayoutTexts.notSetUp, 'payouts_not_configured');
  const outcome = await deps.db.transaction(async (tx) => {
    const payout = await q.lockPayout(tx, id);
    if (!payout) throw notFound(agentPayoutTexts.notFound);
    if (payout.requestedBy === actor.userId) throw new AppError(403, agentPayoutTexts.ownRequest, { code: 'own_payout' });
    if (payout.status !== 'awaiting_approval') throw conflict(agentPayoutTexts.notAwaiting, 'payout_not_awaiting');
    if (await adminsTied(tx, actor.userId, payout.requestedBy)) throw new AppError(403, agentPayoutTexts.tiedToRequester, { code: 'tied_admin' });
    const coolingOff = await adminCoolingOffUntil(tx, actor.userId);
    if (coolingOff) throw new AppError(403, agentPayoutTexts.coolingOff(coolingOffEnd(coolingOff)), { code: 'admin_cooling_off' });
    const step = await acceptStepUpCode(deps, tx, actor.userId, code);
    if (step === 'none') throw fieldError('code', agentPayoutTexts.noSecondFactor);
    if (step === 'wrong') return { wrongCode: true as const };
    await q.updatePayout(tx, id, { status: 'sending', approvedBy: actor.userId, approvedAt: new Date() });
    await audit(tx, 'agent-payout.approve', id, byStaff(actor, requestId), {
      before: { status: payout.status },
      after: { status: 'sending', amount_cents: payout.amountCents },
    });
    return { wrongCode: false as const };
  });
  // Refused outside the transaction so that the code's time step stays taken only when it was right.
  if (outcome.wrongCode) throw fieldError('code', agentPayoutTexts.wrongCode);
  await deps.jobs.nudge(QUEUES.refundSending);
  return { info: agentPayoutTexts.approved, payout: await shownPayout(deps.db, id) };
}

// ---- sending and M-Pesa's answers -----------------------------------------------------------------

async function move(tx: Queryable, payout: q.PayoutRow, action: 'paid' | 'failed' | 'unknown' | 'held', after: Record<string, unknown>) {
  await audit(tx, `agent-payout.${action}`, payout.id, { actorUserId: null, requestId: null }, { before: { status: payout.status }, after: { status: action, ...after } });
}

const open = (p: q.PayoutRow | null): p is q.PayoutRow => p !== null && (p.status === 'sending' || p.status === 'unknown');

async function failPayout(tx: Queryable, id: number, answer: { resultCode: string; resultDesc: string }): Promise<void> {
  const payout = await q.lockPayout(tx, id);
  if (!open(payout)) return;
  await q.updatePayout(tx, id, { status: 'failed', resultCode: answer.resultCode, resultDesc: answer.resultDesc, completedAt: new Date() });
  await move(tx, payout, 'failed', { result_code: answer.resultCode, result: answer.resultDesc, amount_cents: payout.amountCents });
}

async function markPayoutUnknown(tx: Queryable, id: number, why: string): Promise<boolean> {
  const payout = await q.lockPayout(tx, id);
  if (!payout || payout.status !== 'sending') return false;
  await q.updatePayout(tx, id, { status: 'unknown', resultDesc: why });
  await move(tx, payout, 'unknown', { result: why });
  return true;
}

/**
 * M-Pesa says the agent was paid: once (only a payout on its way changes), the payout is paid and
 * the statement SMS is queued (its dedupe key makes it one). A result naming another amount,
 * phone or request holds it for an admin instead.
 */
async function payPayout(tx: Queryable, id: number, answer: { receipt: string; resultDesc: string }, facts: ResultFacts): Promise<void> {
  const payout = await q.lockPayout(tx, id);
  if (!open(payout)) return;
  const mismatch = resultMismatch(
    {
      noun: 'payout',
      amountCents: payout.amountCents,
      method: 'b2c',
      phone: payout.phone,
      originatorConversationId: payout.originatorConversationId,
      conversationId: payout.conversationId,
      reversedReceipt: null,
    },
    facts,
  );
  if (mismatch) {
    await q.updatePayout(tx, id, { status: 'held', mpesaReceipt: answer.receipt, resultCode: '0', resultDesc: agentPayoutTexts.heldForReview(mismatch) });
    await move(tx, payout, 'held', { mpesa_receipt: answer.receipt, mismatch });
    return;
  }
  await q.updatePayout(tx, id, { status: 'paid', mpesaReceipt: answer.receipt, resultCode: '0', resultDesc: answer.resultDesc, completedAt: new Date() });
  await move(tx, payout, 'paid', { mpesa_receipt: answer.receipt, amount_cents: payout.amountCents });
  const body = await customerTextFor(tx, payout.phone, 'sms.agent_payout_paid', {
    month: payout.month,
    amount: kesFixed(payout.amountCents),
    receipt: answer.receipt,
    commissions: kesFixed(payout.commissionsCents),
    carried: kesFixed(payout.carriedCents),
    business: await getSetting(tx, 'portal_business_name'),
  });
  await queueSms(tx, { intent: PAYOUT_PAID_INTENT, dedupeKey: `${PAYOUT_PAID_INTENT}:${payout.id}`, to: payout.phone, body, createdBy: null });
}

/**
 * One of Daraja's answers to a payout (its B2C result or time-out, or a Transaction Status result).
 * Every change happens once, under the payout's row lock, however often Daraja repeats itself.
 * Unknown or unreadable answers are acknowledged and change nothing.
 */
export async function receivePayoutAnswer(deps: AppDeps, kind: Extract<DarajaAnswerKind, 'b2c-result' | 'b2c-timeout' | 'status-result'>, body: unknown) {
  const result = readResult(body);
  if (!result) return;
  const id = await q.payoutForAnswer(deps.db, answeredRequest(kind, result));
  if (id === null) return;
  let settled = false;
  let nudge = false;
  await deps.db.transaction(async (tx) => {
    if (kind === 'b2c-timeout') {
      nudge = await markPayoutUnknown(tx, id, `M-Pesa's queue timed out (${result.resultDesc || 'no result'}): asking M-Pesa how it ended`);
      return;
    }
    const said = endOf(kind, result);
    if (said.end === 'paid') await payPayout(tx, id, said, factsOf(kind, result));
    else if (said.end === 'failed') await failPayout(tx, id, said);
    settled = said.end !== 'none';
    const balance = utilityBalanceOf(kind, result);
    if (balance !== undefined) await recordUtilityBalance(tx, balance);
  });
  if (settled) await deps.jobs.nudge(QUEUES.smsDispatch);
  if (nudge) await deps.jobs.nudge(QUEUES.refundSending);
}

async function sendOne(deps: AppDeps, daraja: DarajaClient, initiator: Initiator, id: number): Promise<void> {
  // Committed before the request leaves: whatever happens next, this payout is never sent again.
  const payout = await q.claimForSending(deps.db, id);
  if (!payout) return;
  try {
    const ack = await daraja.b2cPayment({
      for: 'payout',
      initiator,
      originatorConversationId: payout.originatorConversationId,
      amountKes: centsToKes(payout.amountCents),
      remarks: `Agent commission ${payout.month}`,
      phone: payout.phone,
    });
    await q.updatePayout(deps.db, id, { conversationId: ack.conversationId || null });
  } catch (error) {
    await deps.db.transaction(async (tx) => {
      if (refusedForSure(error)) await failPayout(tx, id, { resultCode: error.code ?? '', resultDesc: error.message });
      else await markPayoutUnknown(tx, id, `No answer from M-Pesa when sending: ${error instanceof Error ? error.message : 'unknown error'}`);
    });
  }
}

/**
 * Run by the refund job beside the refunds (the same initiator and wait): each approved payout sent
 * once; one sent longer ago than `refund_result_wait_minutes` with no result becomes unknown; each
 * unknown one is asked about by Transaction Status (again after the wait), never resent.
 */
export function runPayoutSending(deps: AppDeps): Promise<{ sent: number; queried: number }> {
  return runB2cQueue(deps, {
    for: 'payout',
    approvedUnsent: q.approvedUnsent,
    sendOne,
    markOverdueUnknown: q.markOverdueUnknown,
    takeDueStatusQueries: q.takeDueStatusQueries,
  });
}
