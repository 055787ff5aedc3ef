import { centsToKes, type MONEY_BRIDGE_LINES } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { CsvTable } from '../../http/csv.ts';
import { closedMonth, monthRange } from '../tax/service.ts';
import { latePostings, moneyBridgeFigures, reconcilingDocuments } from './queries.ts';

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

type BridgeLine = { line: (typeof MONEY_BRIDGE_LINES)[number]; label: string; count: number; amount: number; link: string; closed_month?: string; closed_month_link?: string };

/**
 * A closed month (decision 075) reads the lines kept at its close, and so does each of its days
 * (decision 079, kept beside the month's); later claims and refunds of its payments are posted in
 * the open month, where they are listed as late postings. A day of a month closed before the days
 * were kept is read from its rows, marked closed.
 */
export async function moneyBridge(db: Queryable, query: { month?: string | undefined; date?: string | undefined }) {
  const range = query.month ? monthRange(query.month) : { from: query.date!, to: query.date! };
  const closed = await closedMonth(db, range.from.slice(0, 7));
  const kept = closed ? (query.month ? closed.snapshot.bridge : closed.snapshot.days?.[query.date!]) : undefined;
  if (closed && kept) return { from: range.from, to: range.to, closed: closed.closed, lines: kept as BridgeLine[], difference: 0 };
  return { ...(await liveBridge(db, range)), closed: closed?.closed ?? null };
}

/** Every day's bridge of a month, as its close keeps them (decision 079). */
export async function moneyBridgeDays(db: Queryable, month: string): Promise<Record<string, BridgeLine[]>> {
  const { from, to } = monthRange(month);
  const days: Record<string, BridgeLine[]> = {};
  for (let d = Number(from.slice(8)); d <= Number(to.slice(8)); d += 1) {
    const day = `${month}-${String(d).padStart(2, '0')}`;
    // One after the other: at a close they run in its transaction, on its one connection.
    days[day] = (await liveBridge(db, { from: day, to: day })).lines;
  }
  return days;
}

const monthName = (month: string) => new Date(`${month}-15T12:00:00Z`).toLocaleString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * The late postings (decision 079): documents written in the period for payments of a closed month.
 * The period's VAT return counts them (the tax point); its M-Pesa money is the closed month's, so
 * they stand outside the period's equation, one group per closed month, linked back to it.
 */
async function lateLines(db: Queryable, range: { from: string; to: string }): Promise<BridgeLine[]> {
  const found = await latePostings(db, range);
  if (found.length === 0) return [];
  const days = `from=${range.from}&to=${range.to}`;
  const n = (v: string | null) => Number(v ?? 0);
  const net = (r: (typeof found)[number]) => n(r.invoices) - n(r.credit_notes);
  const count = (r: (typeof found)[number]) => n(r.invoices_n) + n(r.credit_notes_n);
  const lines: BridgeLine[] = [
    {
      line: 'late_postings',
      label: "Late postings from closed months (in this period's VAT return; their M-Pesa is the closed month's)",
      count: found.reduce((c, r) => c + count(r), 0),
      amount: centsToKes(found.reduce((c, r) => c + net(r), 0)),
      link: `/tax?${days}`,
    },
  ];
  for (const r of found) {
    const back = monthRange(r.month);
    const closedLink = `/reports?report=money-bridge&group=day&from=${back.from}&to=${back.to}`;
    const of = { closed_month: r.month, closed_month_link: closedLink };
    lines.push(
      { line: 'late_month', label: `  For ${monthName(r.month)} (closed)`, count: count(r), amount: centsToKes(net(r)), link: closedLink, ...of },
      { line: 'late_invoices', label: '    Invoices written late (claims, confirmations, reissues)', count: n(r.invoices_n), amount: centsToKes(n(r.invoices)), link: `/tax?${days}&kind=invoice`, ...of },
      { line: 'late_credit_notes', label: '    Credit notes (refunds, corrections)', count: n(r.credit_notes_n), amount: centsToKes(n(r.credit_notes)), link: `/tax?${days}&kind=credit_note`, ...of },
    );
  }
  return lines;
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The reconciling lines (decision 080): what stands between the bridge's sales (by the payment's
 * M-Pesa time) with the late postings, and the period's VAT return (by the tax point). Each amount is
 * what it adds to reach the return; the last line is the return's sales, to the cent. Shown only
 * when something stands between them (else the return's sales are the bridge's, decision 068).
 */
async function reconcilingLines(db: Queryable, range: { from: string; to: string }, salesCents: number, late: BridgeLine[]): Promise<BridgeLine[]> {
  const r = await reconcilingDocuments(db, range);
  const n = (v: string | null) => Number(v ?? 0);
  const days = `from=${range.from}&to=${range.to}`;
  const parts = [
    { line: 'reconcile_written_later' as const, label: "  Less: credit notes of this period's payments written after it (in a later period's VAT return)", count: n(r.later_n), cents: -n(r.later), link: `/tax?from=${nextDay(range.to)}&kind=credit_note` },
    { line: 'reconcile_open_earlier' as const, label: '  Plus: credit notes written in this period for payments of an earlier period not closed (refunds or corrections)', count: n(r.open_earlier_n), cents: n(r.open_earlier), link: `/tax?${days}&kind=credit_note` },
    { line: 'reconcile_no_payment' as const, label: '  Plus: documents without an M-Pesa payment (bonuses paid in cash)', count: n(r.no_payment_n), cents: n(r.no_payment), link: `/tax?${days}` },
  ].filter((p) => p.count > 0);
  if (parts.length === 0 && late.length === 0) return [];
  const lateCents = late.length > 0 ? Math.round(late[0]!.amount * 100) : 0;
  const net = parts.reduce((c, p) => c + p.cents, 0);
  return [
    ...(parts.length > 0
      ? [
          {
            line: 'reconciling' as const,
            label: "Reconciling to the VAT return (documents whose tax point is in another period than their payment's M-Pesa time)",
            count: parts.reduce((c, p) => c + p.count, 0),
            amount: centsToKes(net),
            link: `/tax?${days}`,
          },
        ]
      : []),
    ...parts.map(({ cents, ...p }) => ({ ...p, amount: centsToKes(cents) })),
    {
      line: 'vat_return_sales',
      label: "Sales in this period's VAT return (sales invoiced + late postings + reconciling)",
      count: 0,
      amount: centsToKes(salesCents + lateCents + net),
      link: `/tax?${days}`,
    },
  ];
}

async function liveBridge(db: Queryable, range: { from: string; to: string }) {
  const [f, late] = await Promise.all([figures(db, range), lateLines(db, range)]);
  const reconciling = await reconcilingLines(db, range, f.sales.cents, late);
  const days = `from=${range.from}&to=${range.to}`;
  const line = (name: (typeof MONEY_BRIDGE_LINES)[number], label: string, v: { count: number; cents: number }, link: string): BridgeLine => ({
    line: name,
    label,
    count: v.count,
    amount: centsToKes(v.cents),
    link,
  });
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
    ...late,
    ...reconciling,
  ];
  const parts = f.sales.cents + f.creditDeposits.cents + f.unclaimed.cents + f.unsettled.cents + f.refunded.cents;
  return { from: range.from, to: range.to, lines, difference: centsToKes(f.received.cents - parts) };
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
      { header: 'For closed month', value: (l) => l.closed_month ?? '' },
    ],
    rows: [bridge.lines],
  };
}
