import { sql } from 'drizzle-orm';
import { rows } from '../../db/rows.ts';
import { bonusAllocations, bonusPayments, bonuses, BONUS_PAYMENT_SOURCES } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { audit } from '../audit/service.ts';
import { postLedgerEntry } from '../ledger/service.ts';

export interface BonusSettlement {
  clientId: number;
  /** The most that may be paid; less is paid when less is pending. */
  amountCents: number;
  source: (typeof BONUS_PAYMENT_SOURCES)[number];
  description: string;
  /** The M-Pesa payment it came from (source mpesa). */
  paymentId?: number | null;
  actorUserId: number | null;
  requestId?: string | null;
}

/** Pending (unpaid) bonus of a client in cents: bonuses less what has been allocated to them. */
export async function pendingBonusCents(db: Queryable, clientId: number): Promise<number> {
  const [row] = await rows<{ pending: string }>(db, sql`
    select coalesce(sum(b.amount_cents - coalesce(a.paid, 0)), 0) as pending
      from ${bonuses} b
      left join (select bonus_id, sum(amount_cents) as paid from ${bonusAllocations} group by bonus_id) a
        on a.bonus_id = b.id
     where b.client_id = ${clientId}`);
  return Number(row?.pending ?? 0);
}

/**
 * Pays a client's pending bonuses oldest first, up to `amountCents`, in one bonus payment with an
 * allocation per bonus it touches. Money that came through the client's account (`mpesa`,
 * `balance`) is debited from their ledger. Returns what was paid (0 when nothing was pending).
 */
export async function payPendingBonuses(
  tx: Queryable,
  s: BonusSettlement,
): Promise<{ paidCents: number; bonusPaymentId: number | null }> {
  const open = await rows<{ id: number; remaining: string }>(tx, sql`
    select b.id, b.amount_cents - coalesce((select sum(a.amount_cents) from ${bonusAllocations} a where a.bonus_id = b.id), 0) as remaining
      from ${bonuses} b
     where b.client_id = ${s.clientId}
     order by b.earned_at, b.id
       for update of b`);
  let left = s.amountCents;
  const allocations: { bonusId: number; amountCents: number }[] = [];
  for (const bonus of open) {
    const remaining = Number(bonus.remaining);
    if (left <= 0) break;
    if (remaining <= 0) continue;
    const take = Math.min(left, remaining);
    allocations.push({ bonusId: Number(bonus.id), amountCents: take });
    left -= take;
  }
  const paidCents = s.amountCents - left;
  if (paidCents === 0) return { paidCents: 0, bonusPaymentId: null };

  const [payment] = await tx
    .insert(bonusPayments)
    .values({
      clientId: s.clientId,
      amountCents: paidCents,
      description: s.description,
      source: s.source,
      paymentId: s.paymentId ?? null,
      recordedBy: s.actorUserId,
    })
    .returning({ id: bonusPayments.id });
  const bonusPaymentId = payment!.id;
  await tx.insert(bonusAllocations).values(allocations.map((a) => ({ ...a, bonusPaymentId })));
  if (s.source !== 'manual') {
    await postLedgerEntry(tx, {
      holder: { clientId: s.clientId },
      amountCents: -paidCents,
      kind: 'bonus_payment',
      bonusPaymentId,
      paymentId: s.paymentId ?? null,
      createdBy: s.actorUserId,
    });
  }
  await audit(tx, {
    actorUserId: s.actorUserId,
    action: 'bonus.pay',
    entity: 'client',
    entityId: s.clientId,
    after: { bonus_payment_id: bonusPaymentId, amount_cents: paidCents, source: s.source, allocations },
    requestId: s.requestId ?? null,
  });
  return { paidCents, bonusPaymentId };
}
