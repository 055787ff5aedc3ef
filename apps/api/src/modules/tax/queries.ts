import { sql, type SQL } from 'drizzle-orm';
import { bonusPayments, mpesaPayments, subscriptions, taxDevice, taxInvoiceCounters, taxInvoices } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
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

/** The invoice number of a sale (a subscription), or null when it has none. */
export async function invoiceNumberOfSale(tx: Queryable, subscriptionId: number): Promise<number | null> {
  const [invoice] = await tx
    .select({ number: taxInvoices.number })
    .from(taxInvoices)
    .where(sql`${taxInvoices.subscriptionId} = ${subscriptionId} and ${taxInvoices.kind} = 'invoice'`)
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
 * they were sales when made) without an invoice or with one of another amount, its invoices with
 * no sale, and its credit notes for a reversal that did not happen. Sale and invoice are matched
 * by the subscription, whatever day each was written on.
 */
export function dayCheckRows(db: Queryable, day: string) {
  return rows<{
    problem: 'sale_without_invoice' | 'invoice_without_sale' | 'amount_differs' | 'credit_note_without_reversal';
    payment_id: string | null;
    subscription_id: string | null;
    invoice_id: string | null;
    amount_cents: string;
  }>(
    db,
    sql`select case when i.id is null then 'sale_without_invoice' else 'amount_differs' end as problem,
               coalesce(s.payment_id, i.payment_id) as payment_id, s.id as subscription_id, i.id as invoice_id, s.amount_cents
          from ${subscriptions} s
          left join ${taxInvoices} i on i.subscription_id = s.id and i.kind = 'invoice'
         where ${saleOfDay(day)} and (i.id is null or ${invoicedNet(sql`i`)} <> s.amount_cents)
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

/** A day's sales, and the invoices of those sales, counted and summed. */
export async function dayTotals(db: Queryable, day: string) {
  const [t] = await rows<{ sales: string; sales_amount: string | null; invoices: string; invoices_amount: string | null }>(
    db,
    sql`select count(*) as sales, sum(s.amount_cents) as sales_amount,
               count(i.id) as invoices, sum(${invoicedNet(sql`i`)}) as invoices_amount
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
