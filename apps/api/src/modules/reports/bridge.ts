import { centsToKes, type MONEY_BRIDGE_LINES } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { CsvTable } from '../../http/csv.ts';
import { closedMonth, monthRange } from '../tax/service.ts';
import { moneyBridgeFigures } from './queries.ts';

/**
 * The money bridge of a month or a day (decision 068): every M-Pesa payment of the period (by its
 * M-Pesa time, the tax point; rejected ones aside) split by what it became, as it stands now:
 * received = sales invoiced (its invoices − their credit notes) + credit deposits + unclaimed +
 * unsettled refunds + refunded. Each part is read from its own rows; credit deposits are what of a
 * claimed payment is neither invoiced nor refunded (left on a balance, or paid as a bonus that is not
 * invoiced), which the nightly money check's ledger invariants prove to be on the holders' balances.
 */

async function figures(db: Queryable, range: { from: string; to: string }) {
  const f = await moneyBridgeFigures(db, range);
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

/**
 * A closed month (decision 075) reads the lines kept at its close: later claims and refunds of its
 * payments are posted in the open month. A day of a closed month is read from its rows, marked closed.
 */
export async function moneyBridge(db: Queryable, query: { month?: string | undefined; date?: string | undefined }) {
  const range = query.month ? monthRange(query.month) : { from: query.date!, to: query.date! };
  const closed = await closedMonth(db, range.from.slice(0, 7));
  if (closed && query.month) {
    const lines = closed.snapshot.bridge as Awaited<ReturnType<typeof liveBridge>>['lines'];
    return { from: range.from, to: range.to, closed: closed.closed, lines, difference: 0 };
  }
  return { ...(await liveBridge(db, range)), closed: closed?.closed ?? null };
}

async function liveBridge(db: Queryable, range: { from: string; to: string }) {
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
