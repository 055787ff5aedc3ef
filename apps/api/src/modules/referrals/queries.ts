/**
 * The reads and writes of agents, referral rewards and agents' commissions (decision 088). A
 * referral is a use of a referral code (`promo_code_uses`, written by the promo-codes module);
 * these read it with the sale it made.
 * Lives in: apps/api/src/modules/referrals/queries.ts
 */
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { pageWithTotal, rows } from '../../db/rows.ts';
import { excludedPhoneSql } from '../../db/sale-blocks.ts';
import { agentCommissions, agents, mpesaPayments, promoCodes, promoCodeUses, referralRewards, refunds, subscriptions, tipsSubscribers } from '../../db/schema/index.ts';
import { erasedSql } from '../sms/service.ts';

export interface AgentRow {
  id: number;
  name: string;
  phone: string;
  referral_code: string | null;
  referrals: string | number;
  /** The sum of the agent's ledger lines (commissions and clawbacks) of the month asked. */
  month_cents: string | number;
  created_at: string | Date;
}

/** An agent's columns, with the net of their ledger lines of `month` (one statement: no query per agent). */
const agentColumns = (month: string) => sql`a.id, a.name, a.phone, a.created_at,
  (select c.code from ${promoCodes} c where c.referrer_agent_id = a.id) as referral_code,
  (select count(*) from ${promoCodeUses} u join ${promoCodes} c on c.id = u.code_id where c.referrer_agent_id = a.id and u.status = 'used') as referrals,
  (select coalesce(sum(l.amount_cents), 0) from ${agentCommissions} l where l.agent_id = a.id and l.month = ${month}) as month_cents`;

export async function agentPage(db: Queryable, page: { limit: number; offset: number; month: string }) {
  return pageWithTotal<AgentRow & { total_records?: unknown }>(
    db,
    {
      query: sql`select ${agentColumns(page.month)}, count(*) over() as total_records from ${agents} a order by a.id desc limit ${page.limit} offset ${page.offset}`,
      offset: page.offset,
    },
    sql`select count(*) as total from ${agents}`,
  );
}

export async function agentById(db: Queryable, id: number, month: string): Promise<AgentRow | undefined> {
  return (await rows<AgentRow>(db, sql`select ${agentColumns(month)} from ${agents} a where a.id = ${id}`))[0];
}

/** The new agent's id, or null when the phone is an agent's already (the unique index). */
export async function insertAgent(db: Queryable, a: { name: string; phone: string; createdBy: number }): Promise<number | null> {
  const [r] = await rows<{ id: number }>(
    db,
    sql`insert into ${agents} (name, phone, created_by) values (${a.name}, ${a.phone}, ${a.createdBy}) on conflict (phone) do nothing returning id`,
  );
  return r ? Number(r.id) : null;
}

/** SQL true when the phone's person is erased or self-excluded now: every referral lever is off for them. */
const leverOff = (phone: ReturnType<typeof sql>) => sql`(${erasedSql(phone)} or ${excludedPhoneSql(phone)})`;

const refundDone = (paymentId: ReturnType<typeof sql>) => sql`exists (select 1 from ${refunds} r where r.payment_id = ${paymentId} and r.status = 'done')`;
const refundOpen = (paymentId: ReturnType<typeof sql>) =>
  sql`exists (select 1 from ${refunds} r where r.payment_id = ${paymentId} and r.status in ('awaiting_approval', 'awaiting_second_approval', 'sending', 'unknown', 'held'))`;

// ---- a subscriber's referral rewarded after the hold ----------------------------------------------

export interface DueReferral {
  use_id: number;
  referrer_id: number;
  referee_phone: string;
  owner_phone: string;
  sale_package_id: number;
  sale_bet_category_id: number;
  sale_medium: 'sms' | 'web';
  refunded: boolean;
  refund_open: boolean;
  lever_off: boolean;
}

/**
 * Subscribers' referrals whose sale was made before `heldSince` and that have no outcome yet:
 * with whether the sale was refunded (or undone), a refund of it is still on its way, and whether
 * the referrer or the referee is erased or self-excluded.
 */
export function dueReferrals(db: Queryable, heldSince: Date, limit: number): Promise<DueReferral[]> {
  return rows<DueReferral>(
    db,
    sql`select u.id as use_id, c.referrer_subscriber_id as referrer_id, u.phone as referee_phone, o.phone as owner_phone,
               s.package_id as sale_package_id, s.bet_category_id as sale_bet_category_id, s.medium as sale_medium,
               (s.reversed_at is not null or ${refundDone(sql`u.payment_id`)}) as refunded,
               ${refundOpen(sql`u.payment_id`)} as refund_open,
               (${leverOff(sql`o.phone`)} or ${leverOff(sql`u.phone`)}) as lever_off
          from ${promoCodeUses} u
          join ${promoCodes} c on c.id = u.code_id and c.kind = 'referral' and c.referrer_subscriber_id is not null
          join ${tipsSubscribers} o on o.id = c.referrer_subscriber_id
          join ${subscriptions} s on s.id = u.subscription_id
         where u.status = 'used' and u.used_at <= ${heldSince.toISOString()}
           and not exists (select 1 from ${referralRewards} rr where rr.use_id = u.id)
         order by u.id limit ${limit}`,
  );
}

/** The referral's outcome, once: false when another run wrote it first. */
export async function insertReward(db: Queryable, r: { useId: number; subscriberId: number; outcome: 'granted' | 'refunded' | 'suppressed' | 'self_referral'; days: number }): Promise<number | null> {
  const [row] = await rows<{ id: number }>(
    db,
    sql`insert into ${referralRewards} (use_id, subscriber_id, outcome, days) values (${r.useId}, ${r.subscriberId}, ${r.outcome}, ${r.days})
        on conflict (use_id) do nothing returning id`,
  );
  return row ? Number(row.id) : null;
}

export async function setRewardSubscription(db: Queryable, rewardId: number, subscriptionId: number): Promise<void> {
  await db.execute(sql`update ${referralRewards} set subscription_id = ${subscriptionId} where id = ${rewardId}`);
}

/** The tips package a subscriber bought last (their free days are of it), if any. */
export async function lastPackageOf(db: Queryable, subscriberId: number): Promise<{ package_id: number; bet_category_id: number; medium: 'sms' | 'web' } | undefined> {
  return (
    await rows<{ package_id: number; bet_category_id: number; medium: 'sms' | 'web' }>(
      db,
      sql`select package_id, bet_category_id, medium from ${subscriptions}
           where subscriber_id = ${subscriberId} and package_id is not null and reversed_at is null order by created_at desc, id desc limit 1`,
    )
  )[0];
}

// ---- agents' commissions --------------------------------------------------------------------------

/**
 * Every agent's commission not yet written, at `percent`: one line per payment of a referee that
 * made a sale (the sum of its sales not undone) from their first purchase with the code until
 * `months` after it, in the Nairobi month the money came; none for a refunded payment, and none
 * while the agent or the referee is erased or self-excluded. Idempotent (one line per payment).
 */
export async function accrueCommissions(db: Queryable, p: { percent: number; months: number; now: Date }): Promise<number> {
  const written = await rows<{ id: number }>(
    db,
    sql`insert into ${agentCommissions} (agent_id, use_id, payment_id, kind, month, payment_cents, percent, amount_cents)
        select a.id, u.id, p.id, 'commission', to_char(p.received_at at time zone 'Africa/Nairobi', 'YYYY-MM'), sales.cents, ${p.percent}::int,
               floor(sales.cents * ${p.percent}::int / 100)
          from ${promoCodeUses} u
          join ${promoCodes} c on c.id = u.code_id and c.kind = 'referral' and c.referrer_agent_id is not null
          join ${agents} a on a.id = c.referrer_agent_id
          join ${subscriptions} first on first.id = u.subscription_id
          join ${tipsSubscribers} t on t.id = first.subscriber_id
          join lateral (select s.payment_id, sum(s.amount_cents) as cents from ${subscriptions} s
                         where s.subscriber_id = first.subscriber_id and s.payment_id is not null and s.reversed_at is null and s.amount_cents > 0
                         group by s.payment_id) sales on true
          join ${mpesaPayments} p on p.id = sales.payment_id
         where u.status = 'used'
           and (p.id = u.payment_id or p.received_at >= u.used_at)
           and p.received_at < u.used_at + make_interval(months => ${p.months}::int)
           and p.received_at <= ${p.now.toISOString()}
           and not ${refundDone(sql`p.id`)}
           and not ${leverOff(sql`a.phone`)} and not ${leverOff(sql`t.phone`)}
        on conflict (payment_id, kind) do nothing returning id`,
  );
  return written.length;
}

/** A clawback, in `month`, of every commission whose payment has since been refunded or its sale undone. */
export async function clawBackRefunded(db: Queryable, month: string): Promise<number> {
  const written = await rows<{ id: number }>(
    db,
    sql`insert into ${agentCommissions} (agent_id, use_id, payment_id, kind, month, payment_cents, percent, amount_cents)
        select c.agent_id, c.use_id, c.payment_id, 'clawback', ${month}, c.payment_cents, c.percent, -c.amount_cents
          from ${agentCommissions} c
         where c.kind = 'commission'
           and (${refundDone(sql`c.payment_id`)}
                or not exists (select 1 from ${subscriptions} s where s.payment_id = c.payment_id and s.reversed_at is null))
        on conflict (payment_id, kind) do nothing returning id`,
  );
  return written.length;
}

export interface StatementRow {
  kind: 'commission' | 'clawback';
  receipt: string | null;
  payment_id: number;
  received_at: string | Date;
  payment_cents: string | number;
  percent: number;
  amount_cents: string | number;
}

export function statementLines(db: Queryable, agentId: number, month: string): Promise<StatementRow[]> {
  return rows<StatementRow>(
    db,
    sql`select c.kind, p.trans_id as receipt, c.payment_id, p.received_at, c.payment_cents, c.percent, c.amount_cents
          from ${agentCommissions} c join ${mpesaPayments} p on p.id = c.payment_id
         where c.agent_id = ${agentId} and c.month = ${month}
         order by p.received_at, c.id`,
  );
}

// ---- the agents' report (decision 094) ------------------------------------------------------------

export interface AgentReportDbRow {
  agent_id: number;
  name: string;
  referral_code: string | null;
  referees: string | number;
  payments: string | number;
  income_cents: string | number;
  commission_cents: string | number;
  clawback_cents: string | number;
  discount_cents: string | number;
  renewed_30: string | number;
  renewed_90: string | number;
}

/**
 * Every agent over [start, end): the referees whose first purchase with the agent's code was made
 * then; every payment of the agent's referees (from their first purchase on) received then that
 * bought a package, and its amount (a refunded one too: its clawback takes it back); the commission
 * lines of payments received then; the clawback lines written then. One statement for all agents.
 */
export function agentReportBetween(db: Queryable, start: Date, end: Date): Promise<AgentReportDbRow[]> {
  const from = start.toISOString();
  const to = end.toISOString();
  return rows<AgentReportDbRow>(
    db,
    sql`with referees as (
          select c.referrer_agent_id as agent_id, u.used_at, u.payment_id as first_payment_id, u.discount_cents, first.subscriber_id,
                 first.id as first_subscription_id, first.created_at as first_at
            from ${promoCodeUses} u
            join ${promoCodes} c on c.id = u.code_id and c.kind = 'referral' and c.referrer_agent_id is not null
            join ${subscriptions} first on first.id = u.subscription_id
           where u.status = 'used'),
        paid as (
          select r.agent_id, count(*) as payments, sum(p.amount_cents) as income_cents
            from referees r
            join ${mpesaPayments} p on p.id in (select s.payment_id from ${subscriptions} s where s.subscriber_id = r.subscriber_id and s.payment_id is not null)
           where (p.id = r.first_payment_id or p.received_at >= r.used_at)
             and p.received_at >= ${from} and p.received_at < ${to}
           group by r.agent_id),
        ledger as (
          select l.agent_id,
                 sum(l.amount_cents) filter (where l.kind = 'commission' and p.received_at >= ${from} and p.received_at < ${to}) as commission_cents,
                 sum(l.amount_cents) filter (where l.kind = 'clawback' and l.created_at >= ${from} and l.created_at < ${to}) as clawback_cents
            from ${agentCommissions} l join ${mpesaPayments} p on p.id = l.payment_id
           where (l.kind = 'commission' and p.received_at >= ${from} and p.received_at < ${to})
              or (l.kind = 'clawback' and l.created_at >= ${from} and l.created_at < ${to})
           group by l.agent_id),
        -- The range's new referees, as the promotion report counts a code's buyers: their discount, and
        -- whether they bought again (a paid, unreversed subscription) within 30 and 90 days.
        fresh as (
          select r.agent_id, count(*) as referees, sum(r.discount_cents) as discount_cents,
                 count(*) filter (where exists (select 1 from ${subscriptions} s2 where s2.subscriber_id = r.subscriber_id and s2.id <> r.first_subscription_id
                    and s2.payment_id is not null and s2.reversed_at is null and s2.created_at > r.first_at and s2.created_at <= r.first_at + interval '30 days')) as renewed_30,
                 count(*) filter (where exists (select 1 from ${subscriptions} s2 where s2.subscriber_id = r.subscriber_id and s2.id <> r.first_subscription_id
                    and s2.payment_id is not null and s2.reversed_at is null and s2.created_at > r.first_at and s2.created_at <= r.first_at + interval '90 days')) as renewed_90
            from referees r
           where r.used_at >= ${from} and r.used_at < ${to}
           group by r.agent_id)
        select a.id as agent_id, a.name, (select c.code from ${promoCodes} c where c.referrer_agent_id = a.id) as referral_code,
               coalesce(fresh.referees, 0) as referees, coalesce(fresh.discount_cents, 0) as discount_cents,
               coalesce(fresh.renewed_30, 0) as renewed_30, coalesce(fresh.renewed_90, 0) as renewed_90,
               coalesce(paid.payments, 0) as payments, coalesce(paid.income_cents, 0) as income_cents,
               coalesce(ledger.commission_cents, 0) as commission_cents, coalesce(ledger.clawback_cents, 0) as clawback_cents
          from ${agents} a
          left join fresh on fresh.agent_id = a.id
          left join paid on paid.agent_id = a.id
          left join ledger on ledger.agent_id = a.id
         order by a.name, a.id`,
  );
}
