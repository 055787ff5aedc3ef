import { sql } from 'drizzle-orm';
import { centsToKes, type MONEY_BRIDGE_LINES } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { inDays } from '../../db/list.ts';
import { rows } from '../../db/rows.ts';
import { mpesaPayments, refunds, taxInvoices } from '../../db/schema/index.ts';
import type { CsvTable } from '../../http/csv.ts';
import { monthRange } from '../tax/service.ts';

/**
 * The money bridge of a month or a day (decision 068): every M-Pesa payment of the period (by its
 * M-Pesa time, the tax point; rejected ones aside) split by what it became, as it stands now:
 * received = sales invoiced (its invoices − their credit notes) + credit deposits + unclaimed +
 * unsettled refunds + refunded. Each part is read from its own rows; credit deposits are what of a
 * claimed payment is neither invoiced nor refunded (left on a balance, or paid as a bonus that is not
 * invoiced), which the nightly money check's ledger invariants prove to be on the holders' balances.
 */

/** A refund handed to M-Pesa without a result yet, as the money check lists them. */
const UNSETTLED_REFUND = sql`(r.status in ('unknown', 'held') or (r.status = 'sending' and r.sent_at is not null))`;

interface BridgeFigures {
  payments: string;
  received: string | null;
  refunded: string | null;
  refunded_n: string;
  unsettled: string | null;
  unsettled_n: string;
  unclaimed: string | null;
  unclaimed_n: string;
  invoices: string | null;
  invoices_n: string;
  credit_notes: string | null;
  credit_notes_n: string;
  next_month: string | null;
  next_month_n: string;
  claimed_n: string;
}

async function figures(db: Queryable, range: { from: string; to: string }) {
  const [f] = await rows<BridgeFigures>(
    db,
    sql`with p as (
          select id, status, amount_cents, refunded_cents from ${mpesaPayments}
           where status <> 'rejected' and ${inDays(sql`paid_at`, range)}),
        inv as (
          select i.payment_id,
                 sum(i.amount_cents) filter (where i.kind = 'invoice') as invoices, count(*) filter (where i.kind = 'invoice') as invoices_n,
                 sum(i.amount_cents) filter (where i.kind = 'credit_note') as credit_notes, count(*) filter (where i.kind = 'credit_note') as credit_notes_n,
                 sum(i.amount_cents) filter (where i.kind = 'invoice' and not ${inDays(sql`i.created_at`, { to: range.to })}) as next_month,
                 count(*) filter (where i.kind = 'invoice' and not ${inDays(sql`i.created_at`, { to: range.to })}) as next_month_n
            from ${taxInvoices} i where i.payment_id in (select id from p) group by i.payment_id),
        rf as (
          select r.payment_id, sum(r.amount_cents) as unsettled, count(*) as n
            from ${refunds} r where ${UNSETTLED_REFUND} and r.payment_id in (select id from p) group by r.payment_id)
        select count(*) as payments, sum(p.amount_cents) as received,
               sum(p.refunded_cents) as refunded, count(*) filter (where p.refunded_cents > 0) as refunded_n,
               sum(rf.unsettled) as unsettled, coalesce(sum(rf.n), 0) as unsettled_n,
               sum(p.amount_cents - p.refunded_cents - coalesce(rf.unsettled, 0)) filter (where p.status = 'unclaimed') as unclaimed,
               count(*) filter (where p.status = 'unclaimed') as unclaimed_n,
               sum(inv.invoices) as invoices, coalesce(sum(inv.invoices_n), 0) as invoices_n,
               sum(inv.credit_notes) as credit_notes, coalesce(sum(inv.credit_notes_n), 0) as credit_notes_n,
               sum(inv.next_month) as next_month, coalesce(sum(inv.next_month_n), 0) as next_month_n,
               count(*) filter (where p.status = 'claimed' and p.amount_cents - p.refunded_cents - coalesce(rf.unsettled, 0)
                                      - coalesce(inv.invoices, 0) + coalesce(inv.credit_notes, 0) <> 0) as claimed_n
          from p left join inv on inv.payment_id = p.id left join rf on rf.payment_id = p.id`,
  );
  const n = (v: string | null | undefined) => Number(v ?? 0);
  const received = n(f!.received);
  const refunded = n(f!.refunded);
  const unsettled = n(f!.unsettled);
  const unclaimed = n(f!.unclaimed);
  const invoices = n(f!.invoices);
  const creditNotes = n(f!.credit_notes);
  const sales = invoices - creditNotes;
  const creditDeposits = received - refunded - unsettled - unclaimed - sales;
  return {
    received: { count: n(f!.payments), cents: received },
    sales: { count: n(f!.invoices_n) + n(f!.credit_notes_n), cents: sales },
    invoices: { count: n(f!.invoices_n), cents: invoices },
    creditNotes: { count: n(f!.credit_notes_n), cents: creditNotes },
    creditDeposits: { count: n(f!.claimed_n), cents: creditDeposits },
    unclaimed: { count: n(f!.unclaimed_n), cents: unclaimed },
    unsettled: { count: n(f!.unsettled_n), cents: unsettled },
    refunded: { count: n(f!.refunded_n), cents: refunded },
    nextMonth: { count: n(f!.next_month_n), cents: n(f!.next_month) },
  };
}

export async function moneyBridge(db: Queryable, query: { month?: string | undefined; date?: string | undefined }) {
  const range = query.month ? monthRange(query.month) : { from: query.date!, to: query.date! };
  const f = await figures(db, range);
  const days = `from=${range.from}&to=${range.to}`;
  const line = (name: (typeof MONEY_BRIDGE_LINES)[number], label: string, v: { count: number; cents: number }, link: string) => ({ line: name, label, count: v.count, amount: centsToKes(v.cents), link });
  const lines = [
    line('received', 'M-Pesa received', f.received, `/mpesa?${days}`),
    line('sales_invoiced', 'Sales invoiced (invoices − credit notes)', f.sales, `/tax?${days}`),
    line('invoices', '  Invoices', f.invoices, `/tax?${days}&kind=invoice`),
    line('credit_notes', '  Credit notes', f.creditNotes, `/tax?${days}&kind=credit_note`),
    line('credit_deposits', 'Credit deposits (left on balances, bonuses not invoiced)', f.creditDeposits, `/mpesa?${days}&status=claimed`),
    line('unclaimed', 'Unclaimed', f.unclaimed, `/mpesa/unclaimed?${days}`),
    line('unsettled', 'Refunds awaiting M-Pesa', f.unsettled, '/refunds?status=sending'),
    line('refunded', 'Refunded', f.refunded, '/refunds?status=done'),
    line('invoiced_next_month', 'Of the sales: invoiced after the period (late confirmations, later claims)', f.nextMonth, `/tax?from=${range.to}`),
  ] as const;
  const parts = f.sales.cents + f.creditDeposits.cents + f.unclaimed.cents + f.unsettled.cents + f.refunded.cents;
  return { from: range.from, to: range.to, lines: [...lines], difference: centsToKes(f.received.cents - parts) };
}

export async function moneyBridgeCsv(db: Queryable, query: { month?: string | undefined; date?: string | undefined }): Promise<CsvTable<Awaited<ReturnType<typeof moneyBridge>>['lines'][number]>> {
  const bridge = await moneyBridge(db, query);
  return {
    filename: `money-bridge-${query.month ?? query.date}`,
    columns: [
      { header: 'Line', value: (l) => l.label.trim() },
      { header: 'Documents or payments', value: (l) => l.count },
      { header: 'Amount', value: (l) => l.amount.toFixed(2) },
      { header: 'Rows', value: (l) => l.link },
    ],
    rows: [bridge.lines],
  };
}
