// Whom a payment may be claimed to, and payments as stored rows (arrivals, claims, refunds).
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { normaliseKenyanPhone, type ClaimCandidate } from '@betdesk/contract';
import { rows } from '../../../db/rows.ts';
import { asPlaceholders, type FixedStatement } from '../../../db/fixed-statements.ts';
import { clients, mpesaPayments, refunds, tipsSubscribers } from '../../../db/schema/index.ts';
import type { Queryable } from '../../../db/client.ts';

/**
 * People a payment may be claimed to. With a search: clients and subscribers by name or phone, or
 * the payee of another payment with that receipt. Without one: suggestions from the payment's
 * masked MSISDN (same visible digits) and sender name, never claimed automatically.
 */
export async function claimCandidatesFor(
  db: Queryable,
  payment: { msisdn: string | null; msisdnKind: string; senderName: string | null },
  search: string,
): Promise<ClaimCandidate[]> {
  let clientWhere: SQL;
  let subscriberWhere: SQL;
  let clientWhy: SQL;
  let subscriberWhy: SQL;
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    const phone = normaliseKenyanPhone(search) ?? '';
    const paidBy = (column: SQL) => sql`select ${column} from ${mpesaPayments} where upper(trans_id) = upper(${search})`;
    clientWhere = sql`(name ilike ${like} or phone = ${phone} or id in (${paidBy(sql`client_id`)}))`;
    subscriberWhere = sql`(name ilike ${like} or phone = ${phone} or id in (${paidBy(sql`subscriber_id`)}))`;
    clientWhy = sql`null`;
    subscriberWhy = sql`null`;
  } else {
    const masked = payment.msisdnKind === 'masked' ? maskedPattern(payment.msisdn) : null;
    // Every name M-Pesa gave must appear: "JOHN KAMAU" suggests John Kamau, not every John.
    const names = (payment.senderName ?? '')
      .split(/\s+/)
      .filter((n) => n.length >= 3)
      .slice(0, 3)
      .map((n) => `%${n.replace(/[\\%_]/g, '')}%`);
    const nameFits = names.length > 0 ? sql.join(names.map((n) => sql`name ilike ${n}`), sql` and `) : sql`false`;
    const maskFits = masked ? sql`phone like ${masked}` : sql`false`;
    const why = sql`case when ${maskFits} then 'Phone fits the masked number' else 'Same name as the sender' end`;
    const suggests = sql`(${maskFits} or (${nameFits}))`;
    clientWhere = suggests;
    subscriberWhere = suggests;
    clientWhy = why;
    subscriberWhy = why;
  }
  const found = await rows<{ kind: 'client' | 'subscriber'; id: number; name: string; phone: string; suggested: string | null }>(
    db,
    sql`(select 'client' as kind, id, name, phone, ${clientWhy} as suggested
           from ${clients} where deleted_at is null and ${clientWhere} order by name limit 20)
        union all
        (select 'subscriber' as kind, id, name, phone, ${subscriberWhy} as suggested
           from ${tipsSubscribers} where ${subscriberWhere} order by name limit 20)`,
  );
  return found.map((r) => ({ ...r, id: Number(r.id) }));
}

/** "2547 ***** 126" -> "2547%126": the digits M-Pesa left visible, in place. */
export function maskedPattern(msisdn: string | null): string | null {
  if (!msisdn) return null;
  const m = /^([\d\s]*)\*+([\d\s]*)$/.exec(msisdn.replace(/\s*\*[\s*]*/g, '*'));
  if (!m) return null;
  const head = m[1]!.replace(/\s/g, '');
  const tail = m[2]!.replace(/\s/g, '');
  if (head.length + tail.length < 5) return null;
  return `${head}%${tail}`;
}

// --- Payments as stored rows (arrivals, claims, refunds) ---

/** Whose account a payment goes to (matching.ts's Payee, which builds on these statements). */
type Payee = { clientId: number } | { subscriberId: number };

export type PaymentRecord = typeof mpesaPayments.$inferSelect;

export async function paymentRecord(db: Queryable, id: number): Promise<PaymentRecord | undefined> {
  const [payment] = await db.select().from(mpesaPayments).where(eq(mpesaPayments.id, id));
  return payment;
}

/** The payment, locked until the transaction ends (claims and refunds of it queue behind). */
export async function lockPayment(tx: Queryable, id: number): Promise<PaymentRecord | undefined> {
  const [payment] = await tx.select().from(mpesaPayments).where(eq(mpesaPayments.id, id)).for('update');
  return payment;
}

/**
 * The insert of `insertPaymentOnce` as a part of a bigger statement (it returns the new row's id),
 * its text built once per shape of the row.
 */
export function paymentInsertOnce(tx: Queryable, row: PgInsertValue<typeof mpesaPayments>): FixedStatement {
  const p = asPlaceholders(row, 'payment_');
  return {
    shape: `payment once (${p.shape})`,
    values: p.values,
    build: () =>
      tx
        .insert(mpesaPayments)
        .values(p.row)
        .onConflictDoNothing({ target: mpesaPayments.transId })
        .returning({ id: mpesaPayments.id }),
  };
}

/** Stores a payment once per receipt: null when its TransID is stored already (a repeat). */
export async function insertPaymentOnce(tx: Queryable, row: PgInsertValue<typeof mpesaPayments>): Promise<{ id: number } | null> {
  const [stored] = await tx
    .insert(mpesaPayments)
    .values(row)
    .onConflictDoNothing({ target: mpesaPayments.transId })
    .returning({ id: mpesaPayments.id });
  return stored ?? null;
}

/** The payment of a receipt, locked. */
export async function lockPaymentByReceipt(tx: Queryable, receipt: string) {
  const [existing] = await tx
    .select({ id: mpesaPayments.id, status: mpesaPayments.status, amountCents: mpesaPayments.amountCents })
    .from(mpesaPayments)
    .where(eq(mpesaPayments.transId, receipt))
    .for('update');
  return existing;
}

/** The payment row's columns that say it is claimed, and by whom. */
export function claimedColumns(s: { payee: Payee; matchedBy: NonNullable<PaymentRecord['matchedBy']>; actorUserId: number | null }) {
  return {
    status: 'claimed' as const,
    clientId: 'clientId' in s.payee ? s.payee.clientId : null,
    subscriberId: 'subscriberId' in s.payee ? s.payee.subscriberId : null,
    matchedBy: s.matchedBy,
    claimedBy: s.actorUserId,
    claimedAt: sql`now()`,
  };
}

/** Marks a stored payment claimed by the rules (or an STK request), at the database's time. */
export async function markClaimed(tx: Queryable, paymentId: number, s: Parameters<typeof claimedColumns>[0]) {
  await tx.update(mpesaPayments).set(claimedColumns(s)).where(eq(mpesaPayments.id, paymentId));
}

/** Marks a payment claimed by a staff member (at the server's time). */
export async function markClaimedByHand(tx: Queryable, paymentId: number, payee: Payee, claimedBy: number | null) {
  await tx
    .update(mpesaPayments)
    .set({
      status: 'claimed',
      clientId: 'clientId' in payee ? payee.clientId : null,
      subscriberId: 'subscriberId' in payee ? payee.subscriberId : null,
      matchedBy: 'manual',
      claimedBy,
      claimedAt: new Date(),
    })
    .where(eq(mpesaPayments.id, paymentId));
}

export async function markUnclaimed(tx: Queryable, paymentId: number) {
  await tx
    .update(mpesaPayments)
    .set({ status: 'unclaimed', clientId: null, subscriberId: null, matchedBy: null, claimedBy: null, claimedAt: null })
    .where(eq(mpesaPayments.id, paymentId));
}

/** The warning a payment carries for the person who looks at it. */
export async function setPaymentWarning(tx: Queryable, paymentId: number, warning: string | null) {
  await tx.update(mpesaPayments).set({ warning }).where(eq(mpesaPayments.id, paymentId));
}

/** Gives a receipt-less payment its receipt; null when it has one already. */
export async function setReceiptIfNone(tx: Queryable, paymentId: number, transId: string): Promise<number | null> {
  const adopted = await tx
    .update(mpesaPayments)
    .set({ transId })
    .where(and(eq(mpesaPayments.id, paymentId), isNull(mpesaPayments.transId)))
    .returning({ id: mpesaPayments.id });
  return adopted[0]?.id ?? null;
}

/** The callback's receipt on a payment an STK query confirmed, unless that receipt is stored already. */
export async function attachCallbackReceipt(tx: Queryable, paymentId: number, receipt: string, raw: object) {
  await tx
    .update(mpesaPayments)
    .set({ transId: receipt, raw })
    .where(
      and(
        eq(mpesaPayments.id, paymentId),
        isNull(mpesaPayments.transId),
        sql`not exists (select 1 from ${mpesaPayments} other where other.trans_id = ${receipt})`,
      ),
    );
}

/** What a refund M-Pesa confirmed returned of the payment. */
export async function addRefundedCents(tx: Queryable, paymentId: number, cents: number) {
  await tx
    .update(mpesaPayments)
    .set({ refundedCents: sql`${mpesaPayments.refundedCents} + ${cents}` })
    .where(eq(mpesaPayments.id, paymentId));
}

/** Whether the payment has a refund asked, on its way or done (not failed or cancelled). */
export async function hasLiveRefund(tx: Queryable, paymentId: number): Promise<boolean> {
  const [found] = await tx
    .select({ id: refunds.id })
    .from(refunds)
    .where(sql`${refunds.paymentId} = ${paymentId} and ${refunds.status} not in ('failed', 'cancelled')`)
    .limit(1);
  return found !== undefined;
}
