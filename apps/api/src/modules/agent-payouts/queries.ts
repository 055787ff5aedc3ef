/**
 * The reads and writes of agents' payouts (decision 093). An agent's balance for a month is the
 * sum of their commission lines up to that month (the referrals module's ledger, clawbacks
 * included) less every payout not failed: so a negative month, a failed payout and cents under a
 * shilling carry to the next payout, and no line is paid twice.
 * Lives in: apps/api/src/modules/agent-payouts/queries.ts
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { AgentPayoutStatus } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { pageWithTotal, rows } from '../../db/rows.ts';
import { agentCommissions, agentPayouts, agents } from '../../db/schema/index.ts';
import { erasedSql } from '../sms/service.ts';

export type PayoutRow = typeof agentPayouts.$inferSelect;

/** Holds the payout runs' lock until the transaction ends: one month's payouts made at a time. */
export async function waitForOtherRuns(tx: Queryable): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('betdesk-agent-payouts'))`);
}

export interface AgentBalance {
  agent_id: number;
  phone: string;
  /** The month's lines. */
  month_cents: string | number;
  /** Every line of the month and before. */
  upto_cents: string | number;
  /** Every payout not failed, of any month. */
  paid_cents: string | number;
  asked: boolean;
}

/**
 * Each agent with a commission line in or before `month` (an erased agent's phone is no one's: left
 * out): what the month and the months before hold, and what was paid.
 */
export function balances(db: Queryable, month: string): Promise<AgentBalance[]> {
  return rows<AgentBalance>(
    db,
    sql`select a.id as agent_id, a.phone,
               coalesce((select sum(c.amount_cents) from ${agentCommissions} c where c.agent_id = a.id and c.month = ${month}), 0) as month_cents,
               coalesce((select sum(c.amount_cents) from ${agentCommissions} c where c.agent_id = a.id and c.month <= ${month}), 0) as upto_cents,
               coalesce((select sum(p.amount_cents) from ${agentPayouts} p where p.agent_id = a.id and p.status <> 'failed'), 0) as paid_cents,
               exists (select 1 from ${agentPayouts} p where p.agent_id = a.id and p.month = ${month}) as asked
          from ${agents} a
         where exists (select 1 from ${agentCommissions} c where c.agent_id = a.id and c.month <= ${month})
           and not ${erasedSql(sql`a.phone`)}
         order by a.id`,
  );
}

/** The new payout's id, or null when the agent's payout of the month exists (the unique index). */
export async function insertPayout(db: Queryable, values: typeof agentPayouts.$inferInsert): Promise<number | null> {
  const [row] = await db.insert(agentPayouts).values(values).onConflictDoNothing().returning({ id: agentPayouts.id });
  return row ? row.id : null;
}

export async function lockPayout(db: Queryable, id: number): Promise<PayoutRow | null> {
  const [row] = await db.select().from(agentPayouts).where(eq(agentPayouts.id, id)).for('update');
  return row ?? null;
}

export async function updatePayout(db: Queryable, id: number, set: Partial<typeof agentPayouts.$inferInsert>): Promise<PayoutRow> {
  const [row] = await db.update(agentPayouts).set(set).where(eq(agentPayouts.id, id)).returning();
  return row!;
}

/** Takes the right to send one payout: the row once, for the one caller whose update set sent_at. */
export async function claimForSending(db: Queryable, id: number): Promise<PayoutRow | null> {
  const [row] = await db
    .update(agentPayouts)
    .set({ sentAt: sql`now()` })
    .where(sql`${agentPayouts.id} = ${id} and ${agentPayouts.status} = 'sending' and ${agentPayouts.sentAt} is null`)
    .returning();
  return row ?? null;
}

export async function approvedUnsent(db: Queryable): Promise<number[]> {
  const found = await db
    .select({ id: agentPayouts.id })
    .from(agentPayouts)
    .where(sql`${agentPayouts.status} = 'sending' and ${agentPayouts.sentAt} is null`)
    .orderBy(agentPayouts.id);
  return found.map((r) => r.id);
}

/** Payouts sent longer ago than the wait with no result: their end is unknown from now on. */
export async function markOverdueUnknown(db: Queryable, waitMinutes: number, why: string): Promise<PayoutRow[]> {
  return db
    .update(agentPayouts)
    .set({ status: 'unknown', resultDesc: why })
    .where(
      sql`${agentPayouts.status} = 'sending' and ${agentPayouts.sentAt} is not null
          and ${agentPayouts.sentAt} < now() - make_interval(mins => ${waitMinutes})`,
    )
    .returning();
}

/** Unknown payouts due a Transaction Status query (never asked, or asked longer ago than the wait). */
export async function takeDueStatusQueries(db: Queryable, waitMinutes: number): Promise<PayoutRow[]> {
  return db
    .update(agentPayouts)
    .set({ statusQueriedAt: sql`now()` })
    .where(
      sql`${agentPayouts.status} = 'unknown'
          and (${agentPayouts.statusQueriedAt} is null or ${agentPayouts.statusQueriedAt} < now() - make_interval(mins => ${waitMinutes}))`,
    )
    .returning();
}

/** The payout a Daraja answer is about: by our id or by Daraja's. */
export async function payoutForAnswer(db: Queryable, a: { originatorConversationId: string | null; conversationId: string | null }): Promise<number | null> {
  const conditions: SQL[] = [];
  if (a.originatorConversationId) conditions.push(sql`originator_conversation_id = ${a.originatorConversationId}`);
  if (a.conversationId) conditions.push(sql`conversation_id = ${a.conversationId}`);
  if (conditions.length === 0) return null;
  const found = await rows<{ id: string }>(db, sql`select id from ${agentPayouts} where ${sql.join(conditions, sql` or `)} order by id desc limit 1`);
  return found[0] ? Number(found[0].id) : null;
}

export interface PayoutListRow {
  id: string | number;
  agent_id: number;
  agent_name: string;
  phone: string;
  month: string;
  commissions_cents: string | number;
  carried_cents: string | number;
  amount_cents: string | number;
  status: AgentPayoutStatus;
  requested_by: string | null;
  requested_by_id: number;
  approved_by: string | null;
  mpesa_receipt: string | null;
  result_desc: string | null;
  created_at: Date | string;
  completed_at: Date | string | null;
  total_records?: unknown;
}

const listColumns = sql`p.id, p.agent_id, a.name as agent_name, p.phone, p.month, p.commissions_cents, p.carried_cents, p.amount_cents,
  p.status, rq.name as requested_by, p.requested_by as requested_by_id, ap.name as approved_by, p.mpesa_receipt, p.result_desc,
  p.created_at, p.completed_at`;
const listFrom = sql`from ${agentPayouts} p join ${agents} a on a.id = p.agent_id
  left join users rq on rq.id = p.requested_by left join users ap on ap.id = p.approved_by`;
const statusSql = (status: AgentPayoutStatus | undefined) => (status ? sql`p.status = ${status}` : sql`true`);

export function payoutPage(db: Queryable, f: { status?: AgentPayoutStatus | undefined }, page: { limit: number; offset: number }) {
  return pageWithTotal<PayoutListRow>(
    db,
    {
      query: sql`select ${listColumns}, count(*) over() as total_records ${listFrom} where ${statusSql(f.status)}
                 order by p.month desc, p.id desc limit ${page.limit} offset ${page.offset}`,
      offset: page.offset,
    },
    sql`select count(*) as total from ${agentPayouts} p where ${statusSql(f.status)}`,
  );
}

export async function payoutsById(db: Queryable, ids: number[]): Promise<PayoutListRow[]> {
  if (ids.length === 0) return [];
  return rows<PayoutListRow>(db, sql`select ${listColumns} ${listFrom} where p.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) order by p.id`);
}

export function payoutsOfMonth(db: Queryable, month: string): Promise<PayoutListRow[]> {
  return rows<PayoutListRow>(db, sql`select ${listColumns} ${listFrom} where p.month = ${month} order by p.id`);
}
