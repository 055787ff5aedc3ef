import {
  centsToKes,
  INCOME_SOURCE_LABELS,
  type IncomeFigures,
  type ReportQuery,
  type ReportRangeQuery,
  type SalesLine,
  type SourceFigures,
  type StaffFigures,
  type StaffLine,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { parseSummaryKey, staffKey, summedByDay, summedByKey, type SummaryPrefix } from '../../db/summaries.ts';
import type { CsvTable } from '../../http/csv.ts';
import { byPeriod, resolveRange, type ResolvedRange } from './periods.ts';
import { catalogueNames, manualIncomeByDay, staffNames } from './queries.ts';
import { countLiveClientsPerStaff } from '../clients/service.ts';
import { INCOME_KEYS } from '../../db/money.ts';
import { refundedByDay } from '../refunds/service.ts';

const REFUND_ROW = 'refund';

/**
 * The money reports read the daily summaries (`summary_days`, kept exact by triggers in the
 * transaction of each money change) through db/summaries.ts: a year of days is a few thousand
 * summary rows however many payments, bets or subscriptions there are. Sums stay in integer
 * cents until the answer.
 */

interface DayRow {
  key: string;
  day: string;
  n: number;
  cents: number;
}

async function dayRows(db: Queryable, prefix: SummaryPrefix | readonly SummaryPrefix[], range: ResolvedRange): Promise<DayRow[]> {
  const found = await summedByDay(db, prefix, { from: range.from, to: range.to });
  return found.map((r) => ({ key: r.key, day: r.day, n: r.n, cents: r.amount_cents }));
}

// ---- income -------------------------------------------------------------------------------------

interface IncomeCents {
  tips: number;
  bet4me: number;
  unclaimed: number;
  count: number;
  refunded: number;
}

const PAYER_COLUMN: Record<string, keyof Omit<IncomeCents, 'count'> | undefined> = {
  subscriber: 'tips',
  client: 'bet4me',
  none: 'unclaimed',
};

/** A payment key's parts, else null (the keys read are INCOME_KEYS': rejected payloads are never income). */
function paymentKey(key: string) {
  const parsed = parseSummaryKey(key);
  return parsed?.kind === 'payment' ? parsed : null;
}

function incomeFigures(c: IncomeCents): IncomeFigures {
  return {
    tips: centsToKes(c.tips),
    bet4me: centsToKes(c.bet4me),
    unclaimed: centsToKes(c.unclaimed),
    total: centsToKes(c.tips + c.bet4me + c.unclaimed),
    count: c.count,
    refunded: centsToKes(c.refunded),
    net: centsToKes(c.tips + c.bet4me + c.unclaimed - c.refunded),
  };
}

/** Every stored payment but rejected ones, by the Nairobi day it was paid, split by who owns it. */
export async function incomeReport(db: Queryable, q: ReportQuery) {
  const range = resolveRange(q);
  const payments = (await dayRows(db, INCOME_KEYS, range)).filter((r) => paymentKey(r.key));
  // Refunds are their own line: received money stays received, what went back is counted beside it.
  const refunded = (await refundedByDay(db, range)).map((r) => ({ key: REFUND_ROW, day: r.day, n: 0, cents: r.cents }));
  const empty = (): IncomeCents => ({ tips: 0, bet4me: 0, unclaimed: 0, count: 0, refunded: 0 });
  const add = (acc: IncomeCents, r: DayRow) => {
    if (r.key === REFUND_ROW) {
      acc.refunded += r.cents;
      return;
    }
    const column = PAYER_COLUMN[paymentKey(r.key)!.payer] ?? 'unclaimed';
    acc[column] += r.cents;
    acc.count += r.n;
  };
  const periods = byPeriod(range, [...payments, ...refunded], empty, add);
  const total = empty();
  for (const p of periods) {
    total.tips += p.acc.tips;
    total.bet4me += p.acc.bet4me;
    total.unclaimed += p.acc.unclaimed;
    total.count += p.acc.count;
    total.refunded += p.acc.refunded;
  }
  return {
    from: range.from,
    to: range.to,
    group: range.group,
    rows: periods.map(({ acc, ...p }) => ({ ...p, ...incomeFigures(acc) })),
    total: incomeFigures(total),
  };
}

type IncomeRowOut = Awaited<ReturnType<typeof incomeReport>>['rows'][number];

export async function incomeCsv(db: Queryable, q: ReportQuery): Promise<CsvTable<IncomeRowOut>> {
  const report = await incomeReport(db, q);
  return {
    filename: `report-income-by-${report.group}`,
    columns: [
      { header: 'Period', value: (r) => r.period },
      { header: 'From', value: (r) => r.from },
      { header: 'To', value: (r) => r.to },
      { header: 'Tips (KES)', value: (r) => r.tips.toFixed(2) },
      { header: 'Bet4Me (KES)', value: (r) => r.bet4me.toFixed(2) },
      { header: 'Unclaimed (KES)', value: (r) => r.unclaimed.toFixed(2) },
      { header: 'Total (KES)', value: (r) => r.total.toFixed(2) },
      { header: 'Payments', value: (r) => r.count },
      { header: 'Refunded (KES)', value: (r) => r.refunded.toFixed(2) },
      { header: 'Net (KES)', value: (r) => r.net.toFixed(2) },
    ],
    // A report's rows are bounded by its range cap: one batch.
    rows: [report.rows],
  };
}

// ---- by source ----------------------------------------------------------------------------------

interface SourceCents {
  c2b: number;
  stk: number;
  pull: number;
  statement: number;
  manual: number;
}
const MPESA_SOURCES = ['c2b', 'stk', 'pull', 'statement'] as const;

function sourceFigures(c: SourceCents): SourceFigures {
  const mpesa = c.c2b + c.stk + c.pull + c.statement;
  return {
    c2b: centsToKes(c.c2b),
    stk: centsToKes(c.stk),
    pull: centsToKes(c.pull),
    statement: centsToKes(c.statement),
    manual: centsToKes(c.manual),
    mpesa: centsToKes(mpesa),
    total: centsToKes(mpesa + c.manual),
  };
}

/**
 * Income by how it arrived: M-Pesa payments by source (from the summaries), and what staff
 * recorded by hand — manual subscriptions and manual bonus payments, read by indexed day ranges
 * (no summary key carries a subscription's or bonus payment's source).
 */
export async function incomeBySourceReport(db: Queryable, q: ReportQuery) {
  const range = resolveRange(q);
  const [payments, manual] = await Promise.all([dayRows(db, INCOME_KEYS, range), manualIncomeByDay(db, range)]);
  const rows: { day: string; source: keyof SourceCents; cents: number }[] = [];
  for (const r of payments) {
    const k = paymentKey(r.key);
    if (!k) continue;
    const source = (MPESA_SOURCES as readonly string[]).includes(k.source) ? (k.source as keyof SourceCents) : 'c2b';
    rows.push({ day: r.day, source, cents: r.cents });
  }
  for (const m of manual) rows.push({ day: m.day, source: 'manual', cents: m.cents });
  const empty = (): SourceCents => ({ c2b: 0, stk: 0, pull: 0, statement: 0, manual: 0 });
  const periods = byPeriod(range, rows, empty, (acc, r) => {
    acc[r.source] += r.cents;
  });
  const total = empty();
  for (const p of periods) for (const s of [...MPESA_SOURCES, 'manual'] as const) total[s] += p.acc[s];
  return {
    from: range.from,
    to: range.to,
    group: range.group,
    rows: periods.map(({ acc, ...p }) => ({ ...p, ...sourceFigures(acc) })),
    total: sourceFigures(total),
  };
}

type SourceRowOut = Awaited<ReturnType<typeof incomeBySourceReport>>['rows'][number];

export async function incomeBySourceCsv(db: Queryable, q: ReportQuery): Promise<CsvTable<SourceRowOut>> {
  const report = await incomeBySourceReport(db, q);
  const money = (v: number) => v.toFixed(2);
  return {
    filename: `report-income-by-source-by-${report.group}`,
    columns: [
      { header: 'Period', value: (r) => r.period },
      { header: 'From', value: (r) => r.from },
      { header: 'To', value: (r) => r.to },
      ...(['c2b', 'stk', 'pull', 'statement', 'manual'] as const).map((s) => ({
        header: `${INCOME_SOURCE_LABELS[s]} (KES)`,
        value: (r: SourceRowOut) => money(r[s]),
      })),
      { header: 'M-Pesa (KES)', value: (r) => money(r.mpesa) },
      { header: 'Total (KES)', value: (r) => money(r.total) },
    ],
    // A report's rows are bounded by its range cap: one batch.
    rows: [report.rows],
  };
}

// ---- sales by bet category, medium and plan -------------------------------------------------------

interface LineCents {
  key: string;
  kind: 'tips' | 'bet4me';
  name: string;
  medium: 'sms' | 'web' | null;
  count: number;
  cents: number;
}

const lineOut = (l: LineCents): SalesLine => ({ key: l.key, kind: l.kind, name: l.name, medium: l.medium, count: l.count, amount: centsToKes(l.cents) });

/** Subscriptions sold (not reversed), by the Nairobi day they were made. */
export async function salesReport(db: Queryable, q: ReportQuery) {
  const range = resolveRange(q);
  const [found, names] = await Promise.all([dayRows(db, 'subscription:', range), catalogueNames(db)]);
  const describe = (summaryKey: string): Omit<LineCents, 'count' | 'cents'> | null => {
    const key = parseSummaryKey(summaryKey);
    if (key?.kind === 'subscription:subscriber') {
      const category = Number(key.category);
      const name = names.categories.get(category) ?? (category ? `Category ${category}` : 'No category');
      const m = key.medium === 'sms' || key.medium === 'web' ? key.medium : null;
      return { key: `tips:${category}:${m ?? '-'}`, kind: 'tips', name, medium: m };
    }
    if (key?.kind === 'subscription:client') {
      const plan = Number(key.plan);
      return { key: `bet4me:${plan}`, kind: 'bet4me', name: names.plans.get(plan) ?? (plan ? `Plan ${plan}` : 'No plan'), medium: null };
    }
    return null;
  };
  const rows = found.flatMap((r) => {
    const line = describe(r.key);
    return line ? [{ ...r, line }] : [];
  });
  const periods = byPeriod(range, rows, () => new Map<string, LineCents>(), (acc, r) => {
    let l = acc.get(r.line.key);
    if (!l) acc.set(r.line.key, (l = { ...r.line, count: 0, cents: 0 }));
    l.count += r.n;
    l.cents += r.cents;
  });
  const totals = new Map<string, LineCents>();
  for (const p of periods) {
    for (const l of p.acc.values()) {
      const t = totals.get(l.key) ?? { ...l, count: 0, cents: 0 };
      t.count += l.count;
      t.cents += l.cents;
      totals.set(l.key, t);
    }
  }
  const order = (a: LineCents, b: LineCents) => b.cents - a.cents || a.key.localeCompare(b.key);
  return {
    from: range.from,
    to: range.to,
    group: range.group,
    rows: periods.map(({ acc, ...p }) => {
      const lines = [...acc.values()].sort(order);
      return {
        ...p,
        lines: lines.map(lineOut),
        count: lines.reduce((s, l) => s + l.count, 0),
        amount: centsToKes(lines.reduce((s, l) => s + l.cents, 0)),
      };
    }),
    total: [...totals.values()].sort(order).map(lineOut),
  };
}

type SalesCsvRow = SalesLine & { period: string; from: string; to: string };

export async function salesCsv(db: Queryable, q: ReportQuery): Promise<CsvTable<SalesCsvRow>> {
  const report = await salesReport(db, q);
  const all = report.rows.flatMap((p) => p.lines.map((l) => ({ ...l, period: p.period, from: p.from, to: p.to })));
  return {
    filename: `report-sales-by-${report.group}`,
    columns: [
      { header: 'Period', value: (r) => r.period },
      { header: 'From', value: (r) => r.from },
      { header: 'To', value: (r) => r.to },
      { header: 'Section', value: (r) => (r.kind === 'tips' ? 'Tips' : 'Bet4Me') },
      { header: 'Bet category or plan', value: (r) => r.name },
      { header: 'Medium', value: (r) => r.medium ?? '' },
      { header: 'Subscriptions', value: (r) => r.count },
      { header: 'Amount (KES)', value: (r) => r.amount.toFixed(2) },
    ],
    // A report's rows are bounded by its range cap: one batch.
    rows: [all],
  };
}

// ---- Bet4Me per staff member --------------------------------------------------------------------

interface StaffCents {
  clients: number;
  bets_opened: number;
  stake: number;
  bets_closed: number;
  profit: number;
  bonus_earned: number;
  bonus_paid: number;
}

const staffOut = (c: StaffCents): StaffFigures => ({
  clients: c.clients,
  bets_opened: c.bets_opened,
  stake: centsToKes(c.stake),
  bets_closed: c.bets_closed,
  profit: centsToKes(c.profit),
  bonus_earned: centsToKes(c.bonus_earned),
  bonus_paid: centsToKes(c.bonus_paid),
});

/**
 * Per staff member (who opened the bet): bets opened and their stake (by day opened), bets closed
 * and their profit (by day closed), bonuses earned on their bets and what of them is paid (by day
 * earned); clients are those assigned to them today.
 */
export async function staffReport(db: Queryable, q: ReportRangeQuery) {
  const range = resolveRange(q);
  const span = { from: range.from, to: range.to };
  const [summed, clients, people] = await Promise.all([
    summedByKey(db, ['bet:', 'bonus:'], span),
    countLiveClientsPerStaff(db),
    staffNames(db),
  ]);
  const figures = new Map<number, StaffCents>();
  const of = (userId: number) => {
    let f = figures.get(userId);
    if (!f) figures.set(userId, (f = { clients: 0, bets_opened: 0, stake: 0, bets_closed: 0, profit: 0, bonus_earned: 0, bonus_paid: 0 }));
    return f;
  };
  for (const r of summed) {
    const key = staffKey(r.key);
    // `bet:open` and `bonus:unpaid` are not figures of this report.
    if (!key || key.kind === 'bet:open' || key.kind === 'bonus:unpaid') continue;
    const f = of(key.userId);
    switch (key.kind) {
      case 'bet:opened':
        f.bets_opened += r.n;
        f.stake += r.amount_cents;
        break;
      case 'bet:closed':
        f.bets_closed += r.n;
        break;
      case 'bet:profit':
        f.profit += r.amount_cents;
        break;
      case 'bonus:earned':
        f.bonus_earned += r.amount_cents;
        break;
      case 'bonus:paid':
        f.bonus_paid += r.amount_cents;
        break;
    }
  }
  for (const [userId, n] of clients) of(userId).clients += n;

  const names = new Map(people.map((p) => [Number(p.id), p]));
  const rows: StaffLine[] = [...figures.entries()]
    .filter(([, f]) => Object.values(f).some((v) => v !== 0))
    .map(([userId, f]) => {
      const person = names.get(userId);
      const name = userId === 0 ? 'Not recorded' : person ? `${person.name}${person.deleted ? ' (removed)' : ''}` : `User ${userId}`;
      return { user_id: userId === 0 ? null : userId, name, ...staffOut(f) };
    })
    .sort((a, b) => b.profit - a.profit || a.name.localeCompare(b.name));
  const total: StaffCents = { clients: 0, bets_opened: 0, stake: 0, bets_closed: 0, profit: 0, bonus_earned: 0, bonus_paid: 0 };
  for (const f of figures.values()) for (const k of Object.keys(total) as (keyof StaffCents)[]) total[k] += f[k];
  return { from: range.from, to: range.to, rows, total: staffOut(total) };
}

export async function staffCsv(db: Queryable, q: ReportRangeQuery): Promise<CsvTable<StaffLine>> {
  const report = await staffReport(db, q);
  const money = (v: number) => v.toFixed(2);
  return {
    filename: `report-bet4me-staff-${report.from}-to-${report.to}`,
    columns: [
      { header: 'Staff member', value: (r) => r.name },
      { header: 'Clients', value: (r) => r.clients },
      { header: 'Bets opened', value: (r) => r.bets_opened },
      { header: 'Stake (KES)', value: (r) => money(r.stake) },
      { header: 'Bets closed', value: (r) => r.bets_closed },
      { header: 'Profit (KES)', value: (r) => money(r.profit) },
      { header: 'Bonus earned (KES)', value: (r) => money(r.bonus_earned) },
      { header: 'Bonus paid (KES)', value: (r) => money(r.bonus_paid) },
    ],
    // A report's rows are bounded by its range cap: one batch.
    rows: [report.rows],
  };
}
