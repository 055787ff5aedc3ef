import { eq, sql, type SQL } from 'drizzle-orm';
import { nairobiRange, type RefundStatus } from '@betdesk/contract';
import { bet4mePlans, mpesaPayments, pricePackages, refunds, subscriptions } from '../../db/schema/index.ts';
import { rows } from '../../db/rows.ts';
import type { Queryable } from '../../db/client.ts';

export type RefundRow = typeof refunds.$inferSelect;

/** What is already going back from a payment: every refund not failed or cancelled. */
export async function committedCents(db: Queryable, paymentId: number): Promise<number> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${refunds.amountCents}), 0)` })
    .from(refunds)
    .where(sql`${refunds.paymentId} = ${paymentId} and ${refunds.status} not in ('failed', 'cancelled')`);
  return Number(row?.cents ?? 0);
}

/** The running subscription or plan the payment bought, if any. */
export async function subscriptionBoughtBy(db: Queryable, paymentId: number) {
  const [sub] = await db
    .select({ id: subscriptions.id, amountCents: subscriptions.amountCents })
    .from(subscriptions)
    .where(sql`${subscriptions.paymentId} = ${paymentId} and ${subscriptions.reversedAt} is null`)
    .limit(1);
  return sub ?? null;
}

/** The running subscription or plan the payment bought, with what it is, for the refund form. */
export async function purchaseOf(db: Queryable, paymentId: number) {
  const [sub] = await db
    .select({
      amountCents: subscriptions.amountCents,
      durationDays: subscriptions.durationDays,
      startsAt: subscriptions.startsAt,
      expiresAt: subscriptions.expiresAt,
      plan: bet4mePlans.name,
      pkg: pricePackages.name,
    })
    .from(subscriptions)
    .leftJoin(bet4mePlans, eq(bet4mePlans.id, subscriptions.planId))
    .leftJoin(pricePackages, eq(pricePackages.id, subscriptions.packageId))
    .where(sql`${subscriptions.paymentId} = ${paymentId} and ${subscriptions.reversedAt} is null`)
    .limit(1);
  return sub ?? null;
}

export async function insertRefund(db: Queryable, values: typeof refunds.$inferInsert): Promise<RefundRow> {
  const [row] = await db.insert(refunds).values(values).returning();
  return row!;
}

export async function lockRefund(db: Queryable, id: number): Promise<RefundRow | null> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id)).for('update');
  return row ?? null;
}

export async function updateRefund(db: Queryable, id: number, set: Partial<typeof refunds.$inferInsert>): Promise<RefundRow> {
  const [row] = await db.update(refunds).set(set).where(eq(refunds.id, id)).returning();
  return row!;
}

/**
 * KES approved for sending on this Nairobi day (what counts against the daily limit): refunds
 * approved today that are on their way, unknown, held or done.
 */
export async function approvedTodayCents(db: Queryable): Promise<number> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${refunds.amountCents}), 0)` })
    .from(refunds)
    .where(
      sql`${refunds.status} in ('sending', 'unknown', 'held', 'done')
          and (${refunds.approvedAt} at time zone 'Africa/Nairobi')::date = (now() at time zone 'Africa/Nairobi')::date`,
    );
  return Number(row?.cents ?? 0);
}

/** Takes the right to send one refund: true once, for the one caller whose update set sent_at. */
export async function claimForSending(db: Queryable, id: number): Promise<RefundRow | null> {
  const [row] = await db
    .update(refunds)
    .set({ sentAt: sql`now()` })
    .where(sql`${refunds.id} = ${id} and ${refunds.status} = 'sending' and ${refunds.sentAt} is null`)
    .returning();
  return row ?? null;
}

export async function approvedUnsent(db: Queryable): Promise<number[]> {
  const found = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(sql`${refunds.status} = 'sending' and ${refunds.sentAt} is null`)
    .orderBy(refunds.id);
  return found.map((r) => r.id);
}

/** Refunds sent longer ago than the wait with no result: their end is unknown from now on. */
export async function markOverdueUnknown(db: Queryable, waitMinutes: number, why: string): Promise<RefundRow[]> {
  return db
    .update(refunds)
    .set({ status: 'unknown', resultDesc: why })
    .where(
      sql`${refunds.status} = 'sending' and ${refunds.sentAt} is not null
          and ${refunds.sentAt} < now() - make_interval(mins => ${waitMinutes})`,
    )
    .returning();
}

/** Unknown refunds due a Transaction Status query (never asked, or asked longer ago than the wait). */
export async function takeDueStatusQueries(db: Queryable, waitMinutes: number): Promise<RefundRow[]> {
  return db
    .update(refunds)
    .set({ statusQueriedAt: sql`now()` })
    .where(
      sql`${refunds.status} = 'unknown'
          and (${refunds.statusQueriedAt} is null or ${refunds.statusQueriedAt} < now() - make_interval(mins => ${waitMinutes}))`,
    )
    .returning();
}

/** The refund a Daraja answer is about: by our id, by Daraja's, or (a Reversal) by the receipt it reverses. */
export async function refundForAnswer(
  db: Queryable,
  a: { originatorConversationId: string | null; conversationId: string | null; reversedReceipt: string | null },
): Promise<number | null> {
  const conditions: SQL[] = [];
  if (a.originatorConversationId) conditions.push(sql`r.originator_conversation_id = ${a.originatorConversationId}`);
  if (a.conversationId) conditions.push(sql`r.conversation_id = ${a.conversationId}`);
  if (a.reversedReceipt) {
    conditions.push(sql`(r.method = 'reversal' and r.status in ('sending', 'unknown') and p.trans_id = ${a.reversedReceipt})`);
  }
  if (conditions.length === 0) return null;
  const found = await rows<{ id: string }>(
    db,
    sql`select r.id from ${refunds} r join ${mpesaPayments} p on p.id = r.payment_id
         where ${sql.join(conditions, sql` or `)} order by r.id desc limit 1`,
  );
  return found[0] ? Number(found[0].id) : null;
}

export interface RefundFilter {
  status?: RefundStatus | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function filterSql(f: RefundFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.status) parts.push(sql`r.status = ${f.status}`);
  const { start, end } = nairobiRange(f);
  if (start) parts.push(sql`r.created_at >= ${start.toISOString()}`);
  if (end) parts.push(sql`r.created_at < ${end.toISOString()}`);
  return sql.join(parts, sql` and `);
}

/**
 * An unknown refund sent (or, its send's answer lost, approved) longer ago than the limit: its
 * status queries have not settled it, and an admin checks the M-Pesa statement.
 */
const unknownPastLimit = (hours: number) =>
  sql`(r.status = 'unknown' and coalesce(r.sent_at, r.approved_at, r.created_at) <= now() - make_interval(hours => ${hours}))`;

/** Refunds an admin must decide: held for review, or unknown past the limit. */
const needsAdmin = (hours: number) => sql`(r.status = 'held' or ${unknownPastLimit(hours)})`;

export async function isUnknownPastLimit(db: Queryable, id: number, hours: number): Promise<boolean> {
  const [row] = await rows<{ past: boolean }>(db, sql`select ${unknownPastLimit(hours)} as past from ${refunds} r where r.id = ${id}`);
  return row?.past === true;
}

export interface RefundListRow {
  id: string;
  payment_id: string;
  trans_id: string | null;
  amount_cents: string;
  reason: string;
  note: string | null;
  method: string;
  effect: string;
  status: string;
  requested_by: string | null;
  approved_by: string | null;
  mpesa_receipt: string | null;
  result_desc: string | null;
  /** Unknown past the limit (an admin must check the statement). */
  past_limit: boolean;
  created_at: Date | string;
  completed_at: Date | string | null;
}

const listColumns = (hours: number) => sql`r.id, r.payment_id, p.trans_id, r.amount_cents, r.reason, r.note, r.method, r.effect, r.status,
  rq.name as requested_by, ap.name as approved_by, r.mpesa_receipt, r.result_desc, ${unknownPastLimit(hours)} as past_limit,
  r.created_at, r.completed_at`;
const listFrom = sql`from refunds r join mpesa_payments p on p.id = r.payment_id
  left join users rq on rq.id = r.requested_by left join users ap on ap.id = r.approved_by`;

export async function refundPage(
  db: Queryable,
  f: RefundFilter & { dir?: 'asc' | 'desc' | undefined },
  page: { limit: number; offset: number },
  alertHours: number,
): Promise<RefundListRow[]> {
  const dir = sql.raw(f.dir === 'asc' ? 'asc' : 'desc');
  return rows<RefundListRow>(
    db,
    sql`select ${listColumns(alertHours)} ${listFrom} where ${filterSql(f)} order by r.created_at ${dir}, r.id ${dir} limit ${page.limit} offset ${page.offset}`,
  );
}

/**
 * The filter's count, and its amounts apart: returned (done), asked and not settled yet, and not
 * returned (failed or cancelled). Beside them, how many refunds of any filter need an admin.
 */
export async function refundTotals(
  db: Queryable,
  f: RefundFilter,
  alertHours: number,
): Promise<{ count: number; refundedCents: number; askedCents: number; failedCents: number; needsAdmin: number }> {
  const [row] = await rows<{ n: string; refunded: string; asked: string; failed: string }>(
    db,
    sql`select count(*) as n,
               coalesce(sum(r.amount_cents) filter (where r.status = 'done'), 0) as refunded,
               coalesce(sum(r.amount_cents) filter (where r.status not in ('done', 'failed', 'cancelled')), 0) as asked,
               coalesce(sum(r.amount_cents) filter (where r.status in ('failed', 'cancelled')), 0) as failed
          from refunds r where ${filterSql(f)}`,
  );
  const [admin] = await rows<{ n: string }>(db, sql`select count(*) as n from refunds r where r.status in ('held', 'unknown') and ${needsAdmin(alertHours)}`);
  return {
    count: Number(row?.n ?? 0),
    refundedCents: Number(row?.refunded ?? 0),
    askedCents: Number(row?.asked ?? 0),
    failedCents: Number(row?.failed ?? 0),
    needsAdmin: Number(admin?.n ?? 0),
  };
}

export async function refundById(db: Queryable, id: number, alertHours: number): Promise<RefundListRow | null> {
  const [row] = await rows<RefundListRow>(db, sql`select ${listColumns(alertHours)} ${listFrom} where r.id = ${id}`);
  return row ?? null;
}

/** Every refund of the filter, oldest first, for the CSV export. */
export function refundsForExport(f: RefundFilter, alertHours: number): SQL {
  return sql`select ${listColumns(alertHours)} ${listFrom} where ${filterSql(f)} order by r.created_at, r.id`;
}

export async function doneByDay(db: Queryable, days: { from: string; to: string }): Promise<{ day: string; cents: string }[]> {
  const { start, end } = nairobiRange(days);
  return rows<{ day: string; cents: string }>(
    db,
    sql`select (completed_at at time zone 'Africa/Nairobi')::date::text as day, sum(amount_cents) as cents
          from ${refunds}
         where status = 'done' and completed_at >= ${start!.toISOString()} and completed_at < ${end!.toISOString()}
         group by 1 order by 1`,
  );
}

/** Holds the refund approvals' lock until the transaction ends: one approval at a time. */
export async function waitForOtherApprovals(tx: Queryable): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('betdesk-refund-approvals'))`);
}
