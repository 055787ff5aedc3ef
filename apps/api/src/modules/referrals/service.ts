/**
 * Referrals and agents (decision 088). A subscriber's or an agent's referral code is a promo code
 * of kind referral (promo-codes module): typed at a first purchase on the portal, the USSD menu or
 * the paybill account, its use is held with the push and made by the sale like any code's, and
 * that use is the referral's record (its payment and subscription). Here: the agents, the
 * referrer's free days after the hold, the agents' commission ledger and its monthly statement.
 * Lives in: apps/api/src/modules/referrals/service.ts
 */
import {
  addDays,
  agentTexts,
  centsToKes,
  defaultRange,
  nairobiDayStart,
  type Agent,
  type AgentBody,
  type AgentReportRow,
  type AgentStatementLine,
  type PageQuery,
  type ReportRangeQuery,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import type { CsvTable } from '../../http/csv.ts';
import { fieldError, notFound } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import { referralCode, referralIsSelf } from '../promo-codes/service.ts';
import { getSettings } from '../settings/service.ts';
import { customerTextFor, queueSms } from '../sms/service.ts';
import { activateSubscription } from '../subscriptions/service.ts';
import * as q from './queries.ts';

const DAY = 86_400_000;
/** The Nairobi month (YYYY-MM) of an instant: the month a ledger line is in. */
const nairobiMonth = (at: Date) => new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 7);

function agentOf(r: q.AgentRow): Agent {
  return {
    id: Number(r.id),
    name: r.name,
    phone: r.phone,
    referral_code: r.referral_code ?? '',
    referrals: Number(r.referrals),
    month_commission: centsToKes(Number(r.month_cents)),
    created_on: iso(r.created_at),
  };
}

/** The agents, newest first, each with this Nairobi month's commission net (the ledger brought up to date first, as a statement does). */
export async function agentPage(db: Queryable, query: PageQuery, now = new Date()) {
  await accrueCommissions(db, now);
  const { found, total } = await q.agentPage(db, { limit: query.perPage, offset: (query.page - 1) * query.perPage, month: nairobiMonth(now) });
  return { total_records: total, agents: found.map(agentOf) };
}

/** Registers an agent (one per phone) with their referral code, in one transaction. */
export async function createAgent(deps: AppDeps, actor: Actor, body: AgentBody, requestId: string) {
  const id = await deps.db.transaction(async (tx) => {
    const created = await q.insertAgent(tx, { name: body.name, phone: body.phone, createdBy: actor.userId });
    if (created === null) throw fieldError('phone', agentTexts.phoneTaken);
    const code = await referralCode(tx, { agentId: created });
    await audit(tx, 'agent.create', created, byStaff(actor, requestId), { after: { ...body, referral_code: code } });
    return created;
  });
  return { info: agentTexts.created, agent: agentOf((await q.agentById(deps.db, id, nairobiMonth(new Date())))!) };
}

/** A subscriber's referral code (made on first asking), for the portal to show. */
export function subscriberReferralCode(db: Queryable, subscriberId: number): Promise<string> {
  return referralCode(db, { subscriberId });
}

// ---- the referrer's free days ---------------------------------------------------------------------

/** The SMS intent of a referrer's free days. */
export const REFERRAL_REWARD_INTENT = 'referral.rewarded';

/**
 * Subscribers' referrals whose sale is older than `referral_hold_days`, each given its outcome
 * once (the unique index on the use): a refunded (or undone) sale gets nothing; an erased or
 * self-excluded referrer or referee nothing; a referee who paid from the referrer's M-Pesa name
 * nothing (self-referral, read again now that the sale's payment is known); else the referrer gets
 * `referral_free_days` of the package they bought last (else the referee's) and an SMS. A sale
 * whose refund is still on its way waits for it. Returns how many were granted.
 */
export async function rewardReferrals(deps: AppDeps, now = new Date()): Promise<{ granted: number; decided: number }> {
  const settings = await getSettings(deps.db, ['referral_hold_days', 'referral_free_days']);
  const due = await q.dueReferrals(deps.db, new Date(now.getTime() - settings.referral_hold_days * DAY), 200);
  let granted = 0;
  let decided = 0;
  for (const r of due) {
    if (r.refund_open && !r.refunded) continue;
    const outcome = r.refunded
      ? 'refunded'
      : r.lever_off
        ? 'suppressed'
        : (await referralIsSelf(deps.db, r.owner_phone, r.referee_phone, now))
          ? 'self_referral'
          : 'granted';
    const days = outcome === 'granted' ? settings.referral_free_days : 0;
    const done = await deps.db.transaction(async (tx) => {
      const rewardId = await q.insertReward(tx, { useId: Number(r.use_id), subscriberId: Number(r.referrer_id), outcome, days });
      if (rewardId === null || outcome !== 'granted' || days <= 0) return rewardId !== null;
      const last = await q.lastPackageOf(tx, Number(r.referrer_id));
      const pkg = last ?? { package_id: r.sale_package_id, bet_category_id: r.sale_bet_category_id, medium: r.sale_medium };
      const sub = await activateSubscription(tx, {
        what: { subscriberId: Number(r.referrer_id), packageId: Number(pkg.package_id), betCategoryId: Number(pkg.bet_category_id), medium: pkg.medium },
        durationDays: days,
        amountCents: 0,
        source: 'manual',
        createdBy: null,
        requestId: null,
      });
      await q.setRewardSubscription(tx, rewardId, sub.id);
      await audit(tx, 'referral.reward', sub.id, { actorUserId: null, requestId: null }, { after: { use_id: Number(r.use_id), days } });
      await queueSms(tx, {
        intent: REFERRAL_REWARD_INTENT,
        dedupeKey: `${REFERRAL_REWARD_INTENT}:${r.use_id}`,
        to: r.owner_phone,
        body: await customerTextFor(tx, r.owner_phone, 'referral.rewarded', { days: String(days) }),
        subscriberId: Number(r.referrer_id),
        createdBy: null,
      });
      granted += 1;
      return true;
    });
    if (done) decided += 1;
  }
  if (granted > 0) await deps.jobs.nudge(QUEUES.smsDispatch);
  return { granted, decided };
}

// ---- agents' commissions --------------------------------------------------------------------------


/**
 * Brings the commission ledger up to `now`: every referee payment's commission not yet written
 * (at today's `agent_commission_percent`, within `agent_commission_months` of the first purchase)
 * and a clawback, in this month, of every commission whose payment was refunded since.
 * Idempotent: run by the job, and before a statement is read.
 */
export async function accrueCommissions(db: Queryable, now = new Date()): Promise<{ commissions: number; clawbacks: number }> {
  const s = await getSettings(db, ['agent_commission_percent', 'agent_commission_months']);
  return db.transaction(async (tx) => ({
    commissions: await q.accrueCommissions(tx, { percent: s.agent_commission_percent, months: s.agent_commission_months, now }),
    clawbacks: await q.clawBackRefunded(tx, nairobiMonth(now)),
  }));
}

/** An agent's month: its lines (commissions and clawbacks), their sums; the total is the lines' sum. */
export async function agentStatement(deps: AppDeps, agentId: number, month: string) {
  const now = new Date();
  if (!(await q.agentById(deps.db, agentId, month))) throw notFound(agentTexts.notFound);
  await accrueCommissions(deps.db, now);
  const agent = (await q.agentById(deps.db, agentId, nairobiMonth(now)))!;
  const found = await q.statementLines(deps.db, agentId, month);
  const lines = found.map(
    (r): AgentStatementLine => ({
      kind: r.kind,
      receipt: r.receipt ?? `#${r.payment_id}`,
      paid_on: iso(r.received_at),
      payment: centsToKes(Number(r.payment_cents)),
      percent: Number(r.percent),
      amount: centsToKes(Number(r.amount_cents)),
    }),
  );
  const sum = (kind: 'commission' | 'clawback') => found.filter((r) => r.kind === kind).reduce((n, r) => n + Number(r.amount_cents), 0);
  return {
    agent: agentOf(agent),
    month,
    lines,
    commissions: centsToKes(sum('commission')),
    clawbacks: centsToKes(sum('clawback')),
    total: centsToKes(sum('commission') + sum('clawback')),
  };
}

// ---- the agents' report (decision 094) ------------------------------------------------------------

/**
 * Per agent over the range's Nairobi days: new referees, their referees' payments and income, the
 * commission of payments received then, the clawbacks written then, and the net. The ledger is
 * brought up to date first, so the report and the statements read the same lines.
 */
export async function agentReport(db: Queryable, query: ReportRangeQuery) {
  const range = defaultRange({ from: query.from, to: query.to, group: 'month' });
  await accrueCommissions(db);
  const found = await q.agentReportBetween(db, nairobiDayStart(range.from), nairobiDayStart(addDays(range.to, 1)));
  const rows = found.map((r): AgentReportRow => {
    const commission = Number(r.commission_cents);
    const clawback = Number(r.clawback_cents);
    return {
      agent_id: Number(r.agent_id),
      name: r.name,
      referral_code: r.referral_code ?? '',
      referees: Number(r.referees),
      discount: centsToKes(Number(r.discount_cents)),
      renewed_30: Number(r.renewed_30),
      renewed_90: Number(r.renewed_90),
      payments: Number(r.payments),
      income: centsToKes(Number(r.income_cents)),
      commission: centsToKes(commission),
      clawback: centsToKes(clawback),
      net: centsToKes(commission + clawback),
    };
  });
  return { from: range.from, to: range.to, rows };
}

export async function agentReportCsv(db: Queryable, query: ReportRangeQuery): Promise<CsvTable<AgentReportRow>> {
  const report = await agentReport(db, query);
  return {
    filename: `report-agents-${report.from}-to-${report.to}`,
    columns: [
      { header: 'Agent', value: (r) => r.name },
      { header: 'Referral code', value: (r) => r.referral_code },
      { header: 'New referees', value: (r) => r.referees },
      { header: 'Discount (KES)', value: (r) => r.discount },
      { header: 'Bought again within 30 days', value: (r) => r.renewed_30 },
      { header: 'Bought again within 90 days', value: (r) => r.renewed_90 },
      { header: 'Payments', value: (r) => r.payments },
      { header: 'Income (KES)', value: (r) => r.income },
      { header: 'Commission (KES)', value: (r) => r.commission },
      { header: 'Clawback (KES)', value: (r) => r.clawback },
      { header: 'Net (KES)', value: (r) => r.net },
    ],
    rows: [report.rows],
  };
}

/** The job's run: rewards due and the commission ledger brought up to date. */
export async function runReferrals(deps: AppDeps): Promise<void> {
  await rewardReferrals(deps);
  await accrueCommissions(deps.db);
}
