import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';
import { safeguardOn } from '../../db/sale-blocks.ts';
import { ageDeclarations, ageHeldPayments, complianceItems, type AgeDeclarationChannel } from '../../db/schema/index.ts';

/** A recorded compliance item with the name of the admin who last changed it. */
export interface ComplianceRow {
  key: string;
  value: string;
  issued_on: string | null;
  expires_on: string | null;
  note: string | null;
  updated_by: string | null;
  updated_at: Date | string;
}

export async function complianceRows(db: Queryable, key?: string): Promise<ComplianceRow[]> {
  return rows<ComplianceRow>(
    db,
    sql`select c.key, c.value, c.issued_on::text as issued_on, c.expires_on::text as expires_on, c.note,
               u.name as updated_by, c.updated_at
          from compliance_items c left join users u on u.id = c.updated_by
         ${key === undefined ? sql`` : sql`where c.key = ${key}`}
         order by c.key`,
  );
}

/** The item as it stood, locked for its change. */
export async function lockedComplianceItem(db: Queryable, key: string) {
  const [row] = await db.select().from(complianceItems).where(eq(complianceItems.key, key)).for('update');
  return row ?? null;
}

export async function saveComplianceItem(
  db: Queryable,
  item: { key: string; value: string; issuedOn: string | null; expiresOn: string | null; note: string | null; updatedBy: number },
): Promise<void> {
  await db
    .insert(complianceItems)
    .values({ ...item, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: complianceItems.key,
      set: { value: item.value, issuedOn: item.issuedOn, expiresOn: item.expiresOn, note: item.note, updatedBy: item.updatedBy, updatedAt: new Date() },
    });
}

/** Records the phone's 18+ declaration once: a later one keeps the first's channel and time. */
export async function recordAgeDeclaration(db: Queryable, phone: string, channel: AgeDeclarationChannel): Promise<boolean> {
  const made = await db.insert(ageDeclarations).values({ phone, channel }).onConflictDoNothing().returning({ phone: ageDeclarations.phone });
  return made.length > 0;
}

export async function ageDeclarationOf(db: Queryable, phone: string) {
  const [row] = await db.select().from(ageDeclarations).where(eq(ageDeclarations.phone, phone));
  return row ?? null;
}

/**
 * SQL true when a sale to this phone waits for its 18+ declaration: `rg_age_gate` on (on when the
 * row is missing) and the phone never declared. A primary-key probe behind a settings lookup.
 */
export function undeclaredPhoneSql(phone: string): SQL {
  return sql`(${safeguardOn('rg_age_gate')} and not exists (select 1 from ${ageDeclarations} d where d.phone = ${phone}))`;
}

export async function insertHeldPayment(tx: Queryable, paymentId: number, phone: string): Promise<void> {
  await tx.insert(ageHeldPayments).values({ paymentId, phone }).onConflictDoNothing();
}

/** The phone's held payments not sold yet, oldest first, locked; `inGrace` when held less than `graceHours` ago. */
export async function heldPaymentsOf(tx: Queryable, phone: string, graceHours: number): Promise<{ paymentId: number; inGrace: boolean }[]> {
  const found = await rows<{ payment_id: number | string; in_grace: boolean }>(
    tx,
    sql`select payment_id, held_at > now() - make_interval(hours => ${graceHours}) as in_grace
          from ${ageHeldPayments} where phone = ${phone} and sold_at is null and unsold_at is null
         order by held_at, payment_id for update`,
  );
  return found.map((r) => ({ paymentId: Number(r.payment_id), inGrace: r.in_grace === true }));
}

export async function markHeldSold(tx: Queryable, paymentId: number): Promise<void> {
  await tx
    .update(ageHeldPayments)
    .set({ soldAt: new Date() })
    .where(and(eq(ageHeldPayments.paymentId, paymentId), isNull(ageHeldPayments.soldAt)));
}

export async function markHeldUnsold(tx: Queryable, paymentId: number): Promise<void> {
  await tx
    .update(ageHeldPayments)
    .set({ unsoldAt: new Date() })
    .where(and(eq(ageHeldPayments.paymentId, paymentId), isNull(ageHeldPayments.soldAt)));
}
