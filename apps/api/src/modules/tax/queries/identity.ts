/**
 * A buyer's KRA PIN and registered name (decision 074): reads and writes of buyer_tax_identities,
 * the buyer's invoices, and the reissue of an invoice with the PIN.
 * Lives in: apps/api/src/modules/tax (the tax invoices' feature folder).
 */
import { and, eq, sql } from 'drizzle-orm';
import { buyerTaxIdentities, taxInvoices } from '../../../db/schema/index.ts';
import type { Queryable } from '../../../db/client.ts';
import { rows } from '../../../db/rows.ts';

export type BuyerIdentityRow = typeof buyerTaxIdentities.$inferSelect;
/** Whose identity: a Bet4Me client or a tips subscriber. */
export type Buyer = { clientId: number } | { subscriberId: number };

const whereBuyer = (b: Buyer) =>
  'clientId' in b ? eq(buyerTaxIdentities.clientId, b.clientId) : eq(buyerTaxIdentities.subscriberId, b.subscriberId);

export async function identityOf(db: Queryable, b: Buyer): Promise<BuyerIdentityRow | null> {
  const [row] = await db.select().from(buyerTaxIdentities).where(whereBuyer(b));
  return row ?? null;
}

export async function saveIdentity(
  tx: Queryable,
  b: Buyer,
  v: { pin: string; name: string; verification: BuyerIdentityRow['verification']; verifiedName: string | null; updatedBy: number | null },
): Promise<BuyerIdentityRow> {
  const [updated] = await tx
    .update(buyerTaxIdentities)
    .set({ ...v, updatedAt: new Date() })
    .where(whereBuyer(b))
    .returning();
  if (updated) return updated;
  const [row] = await tx
    .insert(buyerTaxIdentities)
    .values({ ...('clientId' in b ? { clientId: b.clientId } : { subscriberId: b.subscriberId }), ...v })
    .returning();
  return row!;
}

export async function clearIdentity(tx: Queryable, b: Buyer): Promise<void> {
  await tx.delete(buyerTaxIdentities).where(whereBuyer(b));
}

/** The identity of a sale's buyer (the subscription's client or subscriber), when one is kept. */
export async function identityOfSale(db: Queryable, subscriptionId: number): Promise<{ pin: string; name: string } | null> {
  const [row] = await rows<{ pin: string; name: string }>(
    db,
    sql`select b.pin, b.name from subscriptions s
          join ${buyerTaxIdentities} b on b.client_id = s.client_id or b.subscriber_id = s.subscriber_id
         where s.id = ${subscriptionId}`,
  );
  return row ?? null;
}

export interface BuyerInvoiceRow {
  id: string;
  kind: 'invoice' | 'credit_note';
  number: number;
  created_at: string | Date;
  amount_cents: string;
  status: 'awaiting' | 'queued' | 'sent' | 'rejected';
  buyer_pin: string | null;
  reissued_as: string | null;
}

/** A buyer's invoices and credit notes, newest first (the card's last 50). */
export function invoicesOfBuyer(db: Queryable, b: Buyer): Promise<BuyerInvoiceRow[]> {
  const who = 'clientId' in b ? sql`s.client_id = ${b.clientId}` : sql`s.subscriber_id = ${b.subscriberId}`;
  return rows<BuyerInvoiceRow>(
    db,
    sql`select i.id, i.kind, i.number, i.created_at, i.amount_cents, i.status, i.buyer_pin,
               (select r.id from ${taxInvoices} r where r.reissue_of = i.id) as reissued_as
          from ${taxInvoices} i join subscriptions s on s.id = i.subscription_id
         where ${who}
         order by i.id desc limit 50`,
  );
}

/** The invoice issued again in place of this one, if it was. */
export async function reissueOf(db: Queryable, originalId: number): Promise<{ id: number } | null> {
  const [row] = await db.select({ id: taxInvoices.id }).from(taxInvoices).where(eq(taxInvoices.reissueOf, originalId));
  return row ?? null;
}

/** The credit note that undid the original for its reissue. */
export async function reissueCreditNote(db: Queryable, originalId: number): Promise<{ id: number } | null> {
  const [row] = await db
    .select({ id: taxInvoices.id })
    .from(taxInvoices)
    .where(and(eq(taxInvoices.originalId, originalId), eq(taxInvoices.cause, 'reissue')));
  return row ?? null;
}

/** Who bought what an invoice is of: the subscription's client or subscriber and its staff member. */
export async function buyerOfInvoice(db: Queryable, invoiceId: number) {
  const [row] = await rows<{ client_id: number | null; subscriber_id: number | null; assigned_user_id: number | null; phone: string | null }>(
    db,
    sql`select s.client_id, s.subscriber_id, s.assigned_user_id, coalesce(c.phone, t.phone) as phone
          from ${taxInvoices} i join subscriptions s on s.id = i.subscription_id
          left join clients c on c.id = s.client_id left join tips_subscribers t on t.id = s.subscriber_id
         where i.id = ${invoiceId}`,
  );
  return row ?? null;
}
