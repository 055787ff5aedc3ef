import { and, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import {
  bet4mePlans,
  bonusPayments,
  buyerTaxIdentities,
  mpesaPayments,
  pricePackages,
  subscriptions,
  taxDevice,
  taxInvoiceCounters,
  taxInvoices,
  booksPeriods,
  taxItems,
} from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { ridersFirst, type Rider } from '../../db/riders.ts';
import { rows } from '../../db/rows.ts';
import { inDays, limitSql, type Page } from '../../db/list.ts';

export type TaxDeviceRow = typeof taxDevice.$inferSelect;
export type TaxInvoiceRow = typeof taxInvoices.$inferSelect;

export async function deviceOf(db: Queryable): Promise<TaxDeviceRow | null> {
  const [row] = await db.select().from(taxDevice).limit(1);
  return row ?? null;
}

/**
 * The branch's next invoice number. The counter row stays locked until the sale's transaction ends,
 * so concurrent sales queue here and a rolled-back sale gives its number back: no gaps.
 */
export async function takeInvoiceNumber(tx: Queryable, branchId: string): Promise<number> {
  const [row] = await tx
    .insert(taxInvoiceCounters)
    .values({ branchId, lastNumber: 1 })
    .onConflictDoUpdate({ target: taxInvoiceCounters.branchId, set: { lastNumber: sql`${taxInvoiceCounters.lastNumber} + 1` } })
    .returning({ number: taxInvoiceCounters.lastNumber });
  return row!.number;
}

export type NewInvoice = Omit<typeof taxInvoices.$inferInsert, 'id' | 'number' | 'branchId'>;

/** A sale's invoice before the device decides its branch, tax type and status (`insertDeviceInvoice`). */
export type NewSaleInvoice = Omit<NewInvoice, 'kind' | 'taxType' | 'taxCents' | 'status' | 'buyerPin' | 'buyerName'> & {
  /** The tax in cents under each type the device may sell under: B (VAT registered), D (not). */
  taxCents: { B: number; D: number };
};

/**
 * A sale's invoice in one statement with the device's settings (decision 044): the device row (the
 * branch, whether the business is VAT registered, whether invoicing is initialised) is read by the
 * statement that takes the branch's next number and inserts the invoice, instead of a read before
 * it. No device: branch '00', type D, the invoice waits as "awaiting" (as `deviceOf` null gives).
 */
export async function insertDeviceInvoice(tx: Queryable, invoice: NewSaleInvoice, riders: readonly Rider[] = []): Promise<number> {
  const [row] = await rows<{ id: string }>(
    tx,
    sql`with ${ridersFirst(riders)}device as (
          select coalesce(d.branch_id, '00') as branch_id, coalesce(d.vat_registered, false) as vat,
                 coalesce(d.initialised_at is not null and d.cmc_key_sealed <> '' and d.tin <> '', false) as invoicing -- invoicingOn, in SQL
            from (select 1) one left join (select * from ${taxDevice} limit 1) d on true),
        counter as (
          insert into ${taxInvoiceCounters} (branch_id, last_number) select branch_id, 1 from device
          on conflict (branch_id) do update set last_number = ${taxInvoiceCounters}.last_number + 1
          returning branch_id, last_number),
        -- The buyer's KRA PIN and name when one is kept for the sale's client or subscriber (decision 074).
        buyer as (
          select b.pin, b.name from ${subscriptions} s
            join ${buyerTaxIdentities} b on b.client_id = s.client_id or b.subscriber_id = s.subscriber_id
           where s.id = ${invoice.subscriptionId ?? null}::bigint)
        insert into ${taxInvoices} (kind, branch_id, number, payment_id, subscription_id, bonus_payment_id, item_code, item_name,
                                    amount_cents, quantity, tax_type, tax_cents, buyer_phone, buyer_pin, buyer_name, reissue_of, status, created_by)
        select 'invoice', counter.branch_id, counter.last_number, ${invoice.paymentId ?? null}::bigint, ${invoice.subscriptionId ?? null}::bigint,
               ${invoice.bonusPaymentId ?? null}::bigint, ${invoice.itemCode}, ${invoice.itemName}, ${invoice.amountCents}, ${invoice.quantity ?? 1}::integer,
               case when device.vat then 'B' else 'D' end, case when device.vat then ${invoice.taxCents.B}::bigint else ${invoice.taxCents.D}::bigint end,
               ${invoice.buyerPhone ?? null}, buyer.pin, buyer.name, ${invoice.reissueOf ?? null}::bigint,
               case when device.invoicing then 'queued' else 'awaiting' end, ${invoice.createdBy ?? null}::integer
          from counter cross join device left join buyer on true
        returning id`,
  );
  return Number(row!.id);
}

/** The payer's phone of a payment (the invoice's buyer), when M-Pesa gave it in full. */
export async function payerPhoneOf(tx: Queryable, paymentId: number): Promise<string | null> {
  const [payment] = await tx.select({ phone: mpesaPayments.senderPhone }).from(mpesaPayments).where(sql`${mpesaPayments.id} = ${paymentId}`);
  return payment?.phone ?? null;
}

/** The invoice number of a sale (a subscription), or null when it has none. */
export async function invoiceNumberOfSale(tx: Queryable, subscriptionId: number): Promise<number | null> {
  const [invoice] = await tx
    .select({ number: taxInvoices.number })
    .from(taxInvoices)
    .where(sql`${taxInvoices.subscriptionId} = ${subscriptionId} and ${taxInvoices.kind} = 'invoice'`)
    .orderBy(desc(taxInvoices.id))
    .limit(1);
  return invoice?.number ?? null;
}

/** Takes up to `limit` due invoices for one send, leasing them so that another worker leaves them alone. */
export async function leaseDueInvoices(db: Queryable, limit: number, leaseSeconds: number): Promise<TaxInvoiceRow[]> {
  const leased = await rows<{ id: string }>(
    db,
    sql`update ${taxInvoices} set next_attempt_at = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1
         where id in (select id from ${taxInvoices}
                       where status = 'queued' and next_attempt_at <= now()
                       order by next_attempt_at, id limit ${limit} for update skip locked)
         returning id`,
  );
  if (leased.length === 0) return [];
  const ids = leased.map((r) => Number(r.id));
  return db
    .select()
    .from(taxInvoices)
    .where(sql`${taxInvoices.id} in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`)
    .orderBy(taxInvoices.id);
}

export interface InvoiceFilters {
  from?: string | undefined;
  to?: string | undefined;
  status?: TaxInvoiceRow['status'] | undefined;
  kind?: TaxInvoiceRow['kind'] | undefined;
}

function filtersWhere(f: InvoiceFilters): SQL {
  const parts: SQL[] = [inDays(sql`i.created_at`, { from: f.from, to: f.to })];
  if (f.status) parts.push(sql`i.status = ${f.status}`);
  if (f.kind) parts.push(sql`i.kind = ${f.kind}`);
  return sql.join(parts, sql` and `);
}

export interface InvoiceListRow {
  id: string;
  kind: TaxInvoiceRow['kind'];
  number: number;
  original_number: number | null;
  payment_id: string | null;
  trans_id: string | null;
  created_at: string | Date;
  buyer_phone: string | null;
  item_name: string;
  amount_cents: string;
  tax_type: TaxInvoiceRow['taxType'];
  tax_cents: string;
  status: TaxInvoiceRow['status'];
  kra_receipt_number: number | null;
  sent_at: string | Date | null;
  reason: string | null;
}

const listColumns = sql`i.id, i.kind, i.number, o.number as original_number, i.payment_id, p.trans_id, i.created_at,
  i.buyer_phone, i.item_name, i.amount_cents, i.tax_type, i.tax_cents, i.status, i.kra_receipt_number, i.sent_at, i.reason`;

/**
 * The Tax screen's rows (a page, or all of them for the export), newest first off tax_invoices_created_idx:
 * the order names its nulls as the index does (`desc` alone is `nulls first`, which the index cannot give).
 */
export function invoicesSql(f: InvoiceFilters, page: Page | null): SQL {
  return sql`select ${listColumns}
          from ${taxInvoices} i
          left join ${taxInvoices} o on o.id = i.original_id
          left join ${mpesaPayments} p on p.id = i.payment_id
         where ${filtersWhere(f)}
         order by i.created_at desc nulls last, i.id desc nulls last ${limitSql(page)}`;
}

export function invoicesPage(db: Queryable, f: InvoiceFilters, page: Page): Promise<InvoiceListRow[]> {
  return rows<InvoiceListRow>(db, invoicesSql(f, page));
}

export async function invoiceTotals(db: Queryable, f: InvoiceFilters) {
  const [t] = await rows<{ n: string; amount: string | null; tax: string | null }>(
    db,
    sql`select count(*) as n,
               sum(case when i.kind = 'invoice' then i.amount_cents else -i.amount_cents end) as amount,
               sum(case when i.kind = 'invoice' then i.tax_cents else -i.tax_cents end) as tax
          from ${taxInvoices} i where ${filtersWhere(f)}`,
  );
  return { count: Number(t?.n ?? 0), amountCents: Number(t?.amount ?? 0), taxCents: Number(t?.tax ?? 0) };
}

export async function invoiceById(db: Queryable, id: number): Promise<InvoiceListRow | null> {
  const [row] = await rows<InvoiceListRow>(
    db,
    sql`select ${listColumns}
          from ${taxInvoices} i
          left join ${taxInvoices} o on o.id = i.original_id
          left join ${mpesaPayments} p on p.id = i.payment_id
         where i.id = ${id}`,
  );
  return row ?? null;
}

/** A month's invoices and credit notes per tax type (Nairobi days). */
export function monthSummary(db: Queryable, range: { from: string; to: string }) {
  return rows<{ tax_type: TaxInvoiceRow['taxType']; kind: TaxInvoiceRow['kind']; amount: string; tax: string }>(
    db,
    sql`select i.tax_type, i.kind, sum(i.amount_cents) as amount, sum(i.tax_cents) as tax
          from ${taxInvoices} i where ${inDays(sql`i.created_at`, range)}
         group by i.tax_type, i.kind order by i.tax_type, i.kind`,
  );
}

/**
 * The invoice's amount as the sale now stands: less the credit notes of refunds that shortened the
 * subscription, since such a refund lowers the sale's price by the same amount (decision 036). A
 * reversal's or a plain refund's credit note leaves the sale as it was sold.
 */
const invoicedNet = (i: SQL) =>
  sql`(${i}.amount_cents - coalesce((select sum(c.amount_cents) from ${taxInvoices} c where c.original_id = ${i}.id and c.cause = 'shortened'), 0))`;

const saleOfDay = (day: string) => sql`${inDays(sql`s.created_at`, { from: day, to: day })} and s.source in ('mpesa', 'stk', 'balance', 'ratiba')`;

/**
 * What does not agree on a day: its sales (subscriptions bought with money, reversed ones included:
 * they were sales when made) without an invoice, with one KRA rejected, or with one of another amount, its invoices with
 * no sale, and its credit notes for a reversal that did not happen. Sale and invoice are matched
 * by the subscription, whatever day each was written on.
 */
export function dayCheckRows(db: Queryable, day: string) {
  return rows<{
    problem: 'sale_without_invoice' | 'invoice_rejected' | 'invoice_without_sale' | 'amount_differs' | 'credit_note_without_reversal';
    payment_id: string | null;
    subscription_id: string | null;
    invoice_id: string | null;
    amount_cents: string;
  }>(
    db,
    sql`select case when i.id is null then 'sale_without_invoice' when i.status = 'rejected' then 'invoice_rejected' else 'amount_differs' end as problem,
               coalesce(s.payment_id, i.payment_id) as payment_id, s.id as subscription_id, i.id as invoice_id, s.amount_cents
          from ${subscriptions} s
          left join ${taxInvoices} i on i.subscription_id = s.id and i.kind = 'invoice'
         where ${saleOfDay(day)} and (i.id is null or i.status = 'rejected' or ${invoicedNet(sql`i`)} <> s.amount_cents)
        union all
        select 'invoice_without_sale', i.payment_id, i.subscription_id, i.id, i.amount_cents
          from ${taxInvoices} i
         where i.kind = 'invoice' and ${inDays(sql`i.created_at`, { from: day, to: day })} and i.bonus_payment_id is null
           and not exists (select 1 from ${subscriptions} s where s.id = i.subscription_id and s.source <> 'manual')
        union all
        select 'credit_note_without_reversal', c.payment_id, o.subscription_id, c.id, c.amount_cents
          from ${taxInvoices} c
          join ${taxInvoices} o on o.id = c.original_id
          left join ${subscriptions} s on s.id = o.subscription_id
         where c.kind = 'credit_note' and ${inDays(sql`c.created_at`, { from: day, to: day })}
           and c.cause = 'reversal' and o.bonus_payment_id is null and s.reversed_at is null
        union all
        select 'credit_note_without_reversal', c.payment_id, null, c.id, c.amount_cents
          from ${taxInvoices} c
          join ${taxInvoices} o on o.id = c.original_id
         where c.kind = 'credit_note' and ${inDays(sql`c.created_at`, { from: day, to: day })}
           and c.cause = 'reversal' and o.bonus_payment_id is not null
           and not exists (select 1 from ${bonusPayments} r where r.payment_id = o.payment_id and r.amount_cents < 0)`,
  );
}

/** A day's sales, and the invoices of those sales, counted and summed: one KRA rejected is not invoiced. */
export async function dayTotals(db: Queryable, day: string) {
  const [t] = await rows<{ sales: string; sales_amount: string | null; invoices: string; invoices_amount: string | null }>(
    db,
    sql`select count(*) as sales, sum(s.amount_cents) as sales_amount,
               count(i.id) filter (where i.status <> 'rejected') as invoices,
               sum(${invoicedNet(sql`i`)}) filter (where i.status <> 'rejected') as invoices_amount
          from ${subscriptions} s
          left join ${taxInvoices} i on i.subscription_id = s.id and i.kind = 'invoice'
         where ${saleOfDay(day)}`,
  );
  return {
    sales: { count: Number(t!.sales), amountCents: Number(t!.sales_amount ?? 0) },
    invoices: { count: Number(t!.invoices), amountCents: Number(t!.invoices_amount ?? 0) },
  };
}

/** Invoices neither sent nor rejected after the allowed delay (the late-invoice alert). */
export async function lateInvoiceCount(db: Queryable, lateAfterHours: number): Promise<number> {
  const [t] = await rows<{ n: string }>(
    db,
    sql`select count(*) as n from ${taxInvoices}
         where status in ('queued', 'awaiting') and created_at < now() - make_interval(hours => ${lateAfterHours})`,
  );
  return Number(t?.n ?? 0);
}

// ---- The device -------------------------------------------------------------------------------

export type TaxDeviceValues = Omit<typeof taxDevice.$inferInsert, 'id'>;

/** Saves the one device's settings (the row is created on the first save); returns the device. */
export async function saveDevice(tx: Queryable, values: TaxDeviceValues): Promise<TaxDeviceRow> {
  const [row] = await tx
    .insert(taxDevice)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: taxDevice.id, set: values })
    .returning();
  return row!;
}

/** Stores what KRA's initialisation gave the device (its sealed key first of all); returns the device. */
export async function storeInitialisation(
  tx: Queryable,
  i: { cmcKeySealed: string; sdcId: string | null; mrcNo: string | null; updatedBy: number },
): Promise<TaxDeviceRow> {
  const [row] = await tx
    .update(taxDevice)
    .set({ ...i, initialisedAt: new Date(), updatedAt: new Date() })
    .where(eq(taxDevice.id, 1))
    .returning();
  return row!;
}

/** Queues every invoice that waited for invoicing to be on; returns how many. */
export async function queueAwaitingInvoices(tx: Queryable): Promise<number> {
  const waiting = await tx
    .update(taxInvoices)
    .set({ status: 'queued', nextAttemptAt: new Date() })
    .where(eq(taxInvoices.status, 'awaiting'))
    .returning({ id: taxInvoices.id });
  return waiting.length;
}

// ---- Invoices and credit notes ----------------------------------------------------------------

/** The name a sale's product is invoiced under: its tips package's or its Bet4Me plan's. */
export async function productName(tx: Queryable, what: { packageId: number } | { planId: number }): Promise<string | undefined> {
  const [named] =
    'packageId' in what
      ? await tx.select({ name: pricePackages.name }).from(pricePackages).where(eq(pricePackages.id, what.packageId))
      : await tx.select({ name: bet4mePlans.name }).from(bet4mePlans).where(eq(bet4mePlans.id, what.planId));
  return named?.name;
}

export async function invoiceRow(db: Queryable, id: number): Promise<TaxInvoiceRow | undefined> {
  const [row] = await db.select().from(taxInvoices).where(eq(taxInvoices.id, id));
  return row;
}

/** The invoice, locked until the transaction ends. */
export async function lockInvoice(tx: Queryable, id: number): Promise<TaxInvoiceRow | undefined> {
  const [row] = await tx.select().from(taxInvoices).where(eq(taxInvoices.id, id)).for('update');
  return row;
}

/** A payment's invoices (not its credit notes), newest first, locked until the transaction ends. */
export function lockInvoicesOfPayment(tx: Queryable, paymentId: number): Promise<TaxInvoiceRow[]> {
  return tx
    .select()
    .from(taxInvoices)
    .where(and(eq(taxInvoices.paymentId, paymentId), eq(taxInvoices.kind, 'invoice')))
    .orderBy(desc(taxInvoices.id))
    .for('update');
}

/** The invoices of a payment's bonus payments, oldest first, locked until the transaction ends. */
export function lockBonusInvoicesOfPayment(tx: Queryable, paymentId: number): Promise<TaxInvoiceRow[]> {
  return tx
    .select()
    .from(taxInvoices)
    .where(and(eq(taxInvoices.paymentId, paymentId), eq(taxInvoices.kind, 'invoice'), isNotNull(taxInvoices.bonusPaymentId)))
    .orderBy(taxInvoices.id)
    .for('update');
}

/** A sale's invoice, locked until the transaction ends. */
export async function lockInvoiceOfSale(tx: Queryable, subscriptionId: number): Promise<TaxInvoiceRow | undefined> {
  const [row] = await tx
    .select()
    .from(taxInvoices)
    .where(and(eq(taxInvoices.subscriptionId, subscriptionId), eq(taxInvoices.kind, 'invoice')))
    // A reissued invoice (decision 074) replaces its original: the newest is the sale's live one.
    .orderBy(desc(taxInvoices.id))
    .limit(1)
    .for('update');
  return row;
}

/** How much of an invoice its credit notes have credited, in cents. */
export async function creditedCents(tx: Queryable, invoiceId: number): Promise<number> {
  const [t] = await tx
    .select({ credited: sql<string>`coalesce(sum(${taxInvoices.amountCents}), 0)` })
    .from(taxInvoices)
    .where(and(eq(taxInvoices.kind, 'credit_note'), eq(taxInvoices.originalId, invoiceId)));
  return Number(t?.credited ?? 0);
}

/** Writes a credit note (numbered by the caller); returns its id. */
export async function insertCreditNote(tx: Queryable, note: Omit<typeof taxInvoices.$inferInsert, 'kind'>): Promise<number> {
  const [row] = await tx
    .insert(taxInvoices)
    .values({ kind: 'credit_note', ...note })
    .returning({ id: taxInvoices.id });
  return row!.id;
}

/** Queues a rejected invoice again from its first attempt, or leaves it awaiting while invoicing is off. */
export async function requeueInvoice(tx: Queryable, id: number, status: 'queued' | 'awaiting'): Promise<void> {
  await tx.update(taxInvoices).set({ status, attempts: 0, nextAttemptAt: new Date() }).where(eq(taxInvoices.id, id));
}

/** The invoices (not credit notes) of these payments or subscriptions, oldest first. */
export function invoicesOf(db: Queryable, by: 'payment' | 'subscription', ids: number[]): Promise<TaxInvoiceRow[]> {
  const column = by === 'payment' ? taxInvoices.paymentId : taxInvoices.subscriptionId;
  return db
    .select()
    .from(taxInvoices)
    .where(and(eq(taxInvoices.kind, 'invoice'), sql`${column} in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`))
    .orderBy(taxInvoices.id);
}

// ---- Transmission -----------------------------------------------------------------------------

/** The item as KRA last registered it for the branch, if it did. */
export async function registeredItem(db: Queryable, branchId: string, itemCode: string) {
  const [known] = await db
    .select()
    .from(taxItems)
    .where(and(eq(taxItems.branchId, branchId), eq(taxItems.itemCode, itemCode)));
  return known;
}

/** Records the item as KRA now holds it for the branch (name, price, tax type). */
export async function saveRegisteredItem(
  db: Queryable,
  item: { itemCode: string; branchId: string; name: string; priceCents: number; taxType: TaxInvoiceRow['taxType'] },
): Promise<void> {
  const { itemCode, branchId, ...values } = item;
  const set = { ...values, registeredAt: new Date() };
  await db
    .insert(taxItems)
    .values({ itemCode, branchId, ...set })
    .onConflictDoUpdate({ target: [taxItems.branchId, taxItems.itemCode], set });
}

/** A credit note waits 30 seconds for KRA to hold its invoice, without that counting as an attempt. */
export async function waitForOriginal(db: Queryable, id: number): Promise<void> {
  await db
    .update(taxInvoices)
    .set({ attempts: sql`greatest(${taxInvoices.attempts} - 1, 0)`, nextAttemptAt: sql`now() + interval '30 seconds'` })
    .where(eq(taxInvoices.id, id));
}

/** KRA (or its item registration) refused the invoice, for this reason. */
export async function rejectInvoice(db: Queryable, id: number, reason: string): Promise<void> {
  await db.update(taxInvoices).set({ status: 'rejected', reason }).where(eq(taxInvoices.id, id));
}

/** KRA holds the invoice: its receipt, signature and device time as KRA answered them. */
export async function markInvoiceSent(
  db: Queryable,
  id: number,
  kra: Pick<TaxInvoiceRow, 'kraReceiptNumber' | 'kraTotalReceiptNumber' | 'kraInternalData' | 'kraSignature' | 'kraSdcId' | 'kraSdcTime'>,
): Promise<void> {
  await db.update(taxInvoices).set({ status: 'sent', reason: null, sentAt: new Date(), ...kra }).where(eq(taxInvoices.id, id));
}

/** KRA answered that it held the invoice already (an earlier send's answer was lost). */
export async function markInvoiceAlreadyHeld(db: Queryable, id: number, reason: string): Promise<void> {
  await db.update(taxInvoices).set({ status: 'sent', sentAt: new Date(), reason }).where(eq(taxInvoices.id, id));
}

/** KRA could not be reached: the invoice stays queued and is tried again in `seconds`. */
export async function retryInvoiceLater(db: Queryable, id: number, reason: string, seconds: number): Promise<void> {
  await db
    .update(taxInvoices)
    .set({ reason, nextAttemptAt: sql`now() + make_interval(secs => ${seconds})` })
    .where(eq(taxInvoices.id, id));
}

// ---- The VAT return and the transmissions (decision 068) ---------------------------------------

/**
 * The tax point of a document (decision 068, docs/BUSINESS-RULES.md "The tax point"): an invoice of
 * an M-Pesa payment belongs to the moment the payer paid (`paid_at`, M-Pesa's TransTime), whenever
 * the confirmation came or the invoice was written; a credit note, and an invoice without a payment
 * (a bonus recorded as cash), to the moment it was issued. `p` is joined for invoices only.
 * A closed month takes no postings (decision 075): an invoice written after the month of its payment
 * first closed (a late claim, a late confirmation) belongs to the moment it was written, the open month.
 */
export const taxPointSql = sql`case when i.kind = 'invoice' and p.paid_at is not null and exists (
    select 1 from ${booksPeriods} bp
     where bp.month = to_char(p.paid_at at time zone 'Africa/Nairobi', 'YYYY-MM') and bp.first_closed_at <= i.created_at)
  then i.created_at else coalesce(p.paid_at, i.created_at) end`;

const returnFrom = sql`${taxInvoices} i
          left join ${mpesaPayments} p on p.id = i.payment_id and i.kind = 'invoice'
          left join ${taxInvoices} o on o.id = i.original_id`;

/** A month's books period as the tax screens read it (the books module writes it, decision 075). */
export async function booksPeriodOf(db: Queryable, month: string) {
  const [row] = await db
    .select({ state: booksPeriods.state, returnReference: booksPeriods.returnReference, closedAt: booksPeriods.closedAt, snapshot: booksPeriods.snapshot })
    .from(booksPeriods)
    .where(eq(booksPeriods.month, month));
  return row;
}

/** A month of Nairobi days as the tax point reads it. */
export interface MonthRange {
  from: string;
  to: string;
}

export interface VatReturnRow {
  id: string;
  kind: TaxInvoiceRow['kind'];
  tax_type: TaxInvoiceRow['taxType'];
  branch_id: string;
  number: number;
  item_name: string;
  amount_cents: string;
  tax_cents: string;
  status: TaxInvoiceRow['status'];
  created_at: string | Date;
  kra_sdc_id: string | null;
  kra_receipt_number: number | null;
  buyer_pin: string | null;
  buyer_name: string | null;
  tax_point: string | Date;
  original_branch_id: string | null;
  original_number: number | null;
  original_created_at: string | Date | null;
  original_sdc_id: string | null;
  original_receipt_number: number | null;
}

/**
 * The month's schedule, per rate then by tax point: a page of it, or all of it for the download (streamed).
 * A closed month's is bounded by its close (`writtenBy`, the closed month, decision 079): what was written after it is
 * the open month's by the tax point already; the bound makes the files provably the ones of the close.
 */
export function vatReturnSql(range: MonthRange, page: Page | null, writtenBy?: string): SQL {
  return sql`select i.id, i.kind, i.tax_type, i.branch_id, i.number, i.item_name, i.amount_cents, i.tax_cents, i.status, i.created_at, i.buyer_pin, i.buyer_name,
                    i.kra_sdc_id, i.kra_receipt_number, ${taxPointSql} as tax_point,
                    o.branch_id as original_branch_id, o.number as original_number, o.created_at as original_created_at,
                    o.kra_sdc_id as original_sdc_id, o.kra_receipt_number as original_receipt_number
               from ${returnFrom}
              where ${inDays(taxPointSql, range)} and ${writtenBy ? sql`i.created_at <= (select bp.closed_at from ${booksPeriods} bp where bp.month = ${writtenBy})` : sql`true`}
              order by i.tax_type, ${taxPointSql}, i.id ${limitSql(page)}`;
}

export function vatReturnPage(db: Queryable, range: MonthRange, page: Page, writtenBy?: string): Promise<VatReturnRow[]> {
  return rows<VatReturnRow>(db, vatReturnSql(range, page, writtenBy));
}

/**
 * The month's totals per rate, summed from the same lines as the schedule (a credit note negative):
 * taxable = amount − tax per line, so that the summary equals the schedule to the cent.
 */
export async function vatReturnTotals(db: Queryable, range: MonthRange) {
  const found = await rows<{ tax_type: TaxInvoiceRow['taxType']; n: string; amount: string; tax: string }>(
    db,
    sql`select i.tax_type, count(*) as n,
               sum(case when i.kind = 'invoice' then i.amount_cents else -i.amount_cents end) as amount,
               sum(case when i.kind = 'invoice' then i.tax_cents else -i.tax_cents end) as tax
          from ${returnFrom}
         where ${inDays(taxPointSql, range)}
         group by i.tax_type order by i.tax_type`,
  );
  return found.map((r) => ({ taxType: r.tax_type, count: Number(r.n), amountCents: Number(r.amount), taxCents: Number(r.tax) }));
}

export type TransmissionStatus = 'queued' | 'retrying' | 'rejected';

/** queued: waiting for its first send; retrying: sent and KRA was unreachable; rejected: KRA refused it. */
const transmissionStatusSql = sql`case when i.status = 'rejected' then 'rejected' when i.attempts > 0 and i.reason is not null then 'retrying' else 'queued' end`;

const notAccepted = sql`i.status in ('awaiting', 'queued', 'rejected')`;

export interface TransmissionRow {
  id: string;
  kind: TaxInvoiceRow['kind'];
  number: number;
  status: TransmissionStatus;
  amount_cents: string;
  created_at: string | Date;
  age_seconds: string;
  attempts: number;
  reason: string | null;
  next_attempt_at: string | Date | null;
}

/** The documents KRA has not accepted, oldest first. */
export function transmissionsPage(db: Queryable, status: TransmissionStatus | undefined, page: Page): Promise<TransmissionRow[]> {
  return rows<TransmissionRow>(
    db,
    sql`select * from (
          select i.id, i.kind, i.number, ${transmissionStatusSql} as status, i.amount_cents, i.created_at,
                 extract(epoch from now() - i.created_at)::bigint as age_seconds, i.attempts, i.reason,
                 case when i.status = 'queued' then i.next_attempt_at end as next_attempt_at
            from ${taxInvoices} i where ${notAccepted}) t
         where ${status ? sql`t.status = ${status}` : sql`true`}
         order by t.created_at, t.id ${limitSql(page)}`,
  );
}

/** How many documents KRA has not accepted, per transmission status, and how many are older than `hours`. */
export async function transmissionCounts(db: Queryable, hours: number) {
  const found = await rows<{ status: TransmissionStatus; n: string; old: string }>(
    db,
    sql`select ${transmissionStatusSql} as status, count(*) as n,
               count(*) filter (where i.created_at < now() - make_interval(hours => ${hours})) as old
          from ${taxInvoices} i where ${notAccepted}
         group by 1`,
  );
  const counts = { queued: 0, retrying: 0, rejected: 0 };
  let old = 0;
  for (const r of found) {
    counts[r.status] = Number(r.n);
    old += Number(r.old);
  }
  return { counts, old };
}

/** Brings a queued document's next send forward to now (a retry of one that is waiting for its backoff). */
export async function sendNow(tx: Queryable, id: number): Promise<void> {
  await tx.update(taxInvoices).set({ nextAttemptAt: new Date() }).where(eq(taxInvoices.id, id));
}
