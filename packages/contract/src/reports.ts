import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { Kes } from './common.ts';
import { endsAfterStart, nairobiDayOf, rangeOrderError } from './date-range.ts';
import { BusinessDay } from './lists.ts';
import { BooksClosed } from './books.ts';

/**
 * Reports (/reports, admin): income by owner, by source, by what was bought, subscribers won and
 * lost, Bet4Me per staff member. Every report covers a range of inclusive Africa/Nairobi days,
 * cut into days, Monday-started weeks or calendar months. Money is KES on the wire, summed in
 * integer cents on the server.
 */

export const REPORT_GROUPS = ['day', 'week', 'month'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** Longest range per grouping, in days: a table and a chart stay readable and cheap. */
export const REPORT_MAX_DAYS: Record<ReportGroup, number> = { day: 366, week: 3 * 366, month: 5 * 366 };
/** Range used when `from` is absent, counted back from `to`: 30 days, 12 weeks, 12 months. */
export const REPORT_DEFAULT_PERIODS: Record<ReportGroup, number> = { day: 30, week: 12, month: 12 };

const DAY_MS = 24 * 60 * 60 * 1000;

function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

function dayOfNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/** `day` moved by `n` days. */
export function addDays(day: string, n: number): string {
  return dayOfNumber(dayNumber(day) + n);
}

/** Days from `from` to `to`, both counted. */
export function daysInRange(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from) + 1;
}

/** First day of the period holding `day`: itself, its week's Monday, or the 1st of its month. */
export function periodStart(day: string, group: ReportGroup): string {
  if (group === 'day') return day;
  if (group === 'month') return `${day.slice(0, 8)}01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  return addDays(day, -weekday);
}

/** First day of the period after the one starting at `start`. */
function nextPeriod(start: string, group: ReportGroup): string {
  if (group === 'day') return addDays(start, 1);
  if (group === 'week') return addDays(start, 7);
  const year = Number(start.slice(0, 4));
  const month = Number(start.slice(5, 7));
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}

export interface ReportPeriod {
  /** First day of the whole period (the Monday, the 1st). */
  period: string;
  /** The days of the period inside the range: the first and last period may be cut short. */
  from: string;
  to: string;
}

/** Every period of an inclusive range, in order, each clipped to the range. */
export function periodsOf(from: string, to: string, group: ReportGroup): ReportPeriod[] {
  const out: ReportPeriod[] = [];
  for (let start = periodStart(from, group); start <= to; start = nextPeriod(start, group)) {
    const last = addDays(nextPeriod(start, group), -1);
    out.push({ period: start, from: start < from ? from : start, to: last > to ? to : last });
  }
  return out;
}

/** The range a report covers when `from` or `to` is left out, ending today (Nairobi) by default. */
export function defaultRange(q: { from?: string | undefined; to?: string | undefined; group: ReportGroup }, today = nairobiDayOf(new Date())) {
  const to = q.to ?? (q.from && q.from > today ? q.from : today);
  if (q.from) return { from: q.from, to };
  const n = REPORT_DEFAULT_PERIODS[q.group];
  if (q.group === 'day') return { from: addDays(to, -(n - 1)), to };
  if (q.group === 'week') return { from: addDays(periodStart(to, 'week'), -7 * (n - 1)), to };
  let start = periodStart(to, 'month');
  for (let i = 1; i < n; i += 1) {
    const y = Number(start.slice(0, 4));
    const m = Number(start.slice(5, 7));
    start = m === 1 ? `${y - 1}-12-01` : `${y}-${String(m - 1).padStart(2, '0')}-01`;
  }
  return { from: start, to };
}

export const reportRangeFields = { from: BusinessDay.optional(), to: BusinessDay.optional() };

/** A report's range check: ordered days, no longer than its grouping allows. */
export function capReportRange(q: { from?: string | undefined; to?: string | undefined; group?: ReportGroup }, ctx: z.RefinementCtx) {
  const group = q.group ?? 'month';
  // A field that failed its own check has its message already; the range needs real days.
  const isDay = (d: string | undefined) => d === undefined || BusinessDay.safeParse(d).success;
  if (!isDay(q.from) || !isDay(q.to)) return;
  if (!endsAfterStart(q)) {
    ctx.addIssue({ code: 'custom', path: [...rangeOrderError.path], message: rangeOrderError.message });
    return;
  }
  const { from, to } = defaultRange({ ...q, group });
  const max = REPORT_MAX_DAYS[group];
  if (daysInRange(from, to) > max) {
    const hint = group === 'month' ? '' : ', or group by a longer period';
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: `A report ${q.group ? `grouped by ${group} ` : ''}covers at most ${max} days: choose a shorter range${hint}`,
    });
  }
}

/** `from`, `to` (inclusive Nairobi days) and `group` of a report. */
export const ReportQuery = z
  .object({ ...reportRangeFields, group: z.enum(REPORT_GROUPS, { message: 'group must be day, week or month' }).default('day') })
  .superRefine(capReportRange);
export type ReportQuery = z.output<typeof ReportQuery>;

/** A report without periods (per staff member): only the range, capped as reports by month are. */
export const ReportRangeQuery = z.object(reportRangeFields).superRefine(capReportRange);
export type ReportRangeQuery = z.output<typeof ReportRangeQuery>;

const PeriodFields = { period: z.string(), from: z.string(), to: z.string() };
const RangeFields = { from: z.string(), to: z.string() };

// ---- income -------------------------------------------------------------------------------------

export const IncomeFigures = z.object({
  /** Payments claimed to a tips subscriber. */
  tips: Kes,
  /** Payments claimed to a Bet4Me client. */
  bet4me: Kes,
  /** Payments nobody has claimed yet. */
  unclaimed: Kes,
  total: Kes,
  /** How many payments. */
  count: z.number(),
  /** Money returned to payers by refunds M-Pesa confirmed, on the day they were done (decision 036). */
  refunded: Kes,
  /** Received less refunded. */
  net: Kes,
});
export type IncomeFigures = z.infer<typeof IncomeFigures>;

export const IncomeRow = IncomeFigures.extend(PeriodFields);
export type IncomeRow = z.infer<typeof IncomeRow>;

export const incomeReport = endpoint({
  method: 'GET',
  path: '/api/reports/income',
  tag: 'reports',
  summary:
    'M-Pesa income per day, week (from Monday) or month of Nairobi days: tips, Bet4Me, unclaimed; every stored payment but rejected ones, by its payment time',
  access: 'view:reports',
  query: ReportQuery,
  response: z.object({ ...RangeFields, group: z.enum(REPORT_GROUPS), rows: z.array(IncomeRow), total: IncomeFigures }),
});

// ---- income by source ---------------------------------------------------------------------------

/** How money reached the business: the M-Pesa paths, and what staff recorded by hand. */
export const INCOME_SOURCES = ['c2b', 'stk', 'pull', 'statement', 'manual'] as const;
export type IncomeSource = (typeof INCOME_SOURCES)[number];
export const INCOME_SOURCE_LABELS: Record<IncomeSource, string> = {
  c2b: 'C2B (paybill)',
  stk: 'STK push',
  pull: 'Pull',
  statement: 'Statement import',
  manual: 'Manual (recorded by staff)',
};

export const SourceFigures = z.object({
  c2b: Kes,
  stk: Kes,
  pull: Kes,
  statement: Kes,
  /** Subscriptions and bonus payments staff recorded without an M-Pesa payment (cash, etc.). */
  manual: Kes,
  /** M-Pesa: c2b + stk + pull + statement (equals the income report's total). */
  mpesa: Kes,
  /** mpesa + manual. */
  total: Kes,
});
export type SourceFigures = z.infer<typeof SourceFigures>;

export const incomeBySourceReport = endpoint({
  method: 'GET',
  path: '/api/reports/sources',
  tag: 'reports',
  summary: 'Income per period by how it arrived: C2B, STK, Pull, statement import, and manual records',
  access: 'view:reports',
  query: ReportQuery,
  response: z.object({ ...RangeFields, group: z.enum(REPORT_GROUPS), rows: z.array(SourceFigures.extend(PeriodFields)), total: SourceFigures }),
});

// ---- sales by bet category and medium -------------------------------------------------------------

/** What was sold: a tips bet category in one medium, or a Bet4Me plan. */
export const SalesLine = z.object({
  /** Stable key of the line, e.g. 'tips:3:sms' or 'bet4me:2'. */
  key: z.string(),
  kind: z.enum(['tips', 'bet4me']),
  /** Bet category (tips) or plan (Bet4Me) name. */
  name: z.string(),
  medium: z.enum(['sms', 'web']).nullable(),
  count: z.number(),
  amount: Kes,
});
export type SalesLine = z.infer<typeof SalesLine>;

export const salesReport = endpoint({
  method: 'GET',
  path: '/api/reports/sales',
  tag: 'reports',
  summary: 'Subscriptions sold per period by bet category and medium (tips) and by plan (Bet4Me); reversed ones left out',
  access: 'view:reports',
  query: ReportQuery,
  response: z.object({
    ...RangeFields,
    group: z.enum(REPORT_GROUPS),
    /** One entry per period, with the lines that sold in it. */
    rows: z.array(z.object({ ...PeriodFields, lines: z.array(SalesLine), count: z.number(), amount: Kes })),
    /** Lines over the whole range, biggest first. */
    total: z.array(SalesLine),
  }),
});

// ---- subscribers --------------------------------------------------------------------------------

export const SubscriberFigures = z.object({
  /** Subscribers whose first subscription to the category was made in the period. */
  new: z.number(),
  /** Subscribers who bought the category again in the period (not their first time). */
  renewed: z.number(),
  /** Subscribers whose cover of the category ended in the period with nothing bought to follow it. */
  lapsed: z.number(),
});
export type SubscriberFigures = z.infer<typeof SubscriberFigures>;

export const SubscriberLine = SubscriberFigures.extend({
  bet_category_id: z.number().nullable(),
  category: z.string(),
});
export type SubscriberLine = z.infer<typeof SubscriberLine>;

export const subscribersReport = endpoint({
  method: 'GET',
  path: '/api/reports/subscribers',
  tag: 'reports',
  summary: 'Tips subscribers won (new), kept (renewed) and lost (lapsed) per bet category and period',
  access: 'view:reports',
  query: ReportQuery,
  response: z.object({
    ...RangeFields,
    group: z.enum(REPORT_GROUPS),
    rows: z.array(z.object({ ...PeriodFields, lines: z.array(SubscriberLine) }).extend(SubscriberFigures.shape)),
    /** Per category over the range (a subscriber new in two periods counts twice). */
    total: z.array(SubscriberLine),
  }),
});

// ---- Bet4Me per staff member --------------------------------------------------------------------

export const StaffFigures = z.object({
  /** Live clients assigned to the staff member today. */
  clients: z.number(),
  bets_opened: z.number(),
  /** Stake of the bets opened in the range. */
  stake: Kes,
  bets_closed: z.number(),
  /** Profit of the bets closed in the range (losses negative). */
  profit: Kes,
  /** Bonuses earned in the range on the staff member's bets. */
  bonus_earned: Kes,
  /** Of those bonuses, what has been paid so far. */
  bonus_paid: Kes,
});
export type StaffFigures = z.infer<typeof StaffFigures>;

export const StaffLine = StaffFigures.extend({
  /** Null: bets with no recorded opener (imported or from before staff were recorded). */
  user_id: z.number().nullable(),
  name: z.string(),
});
export type StaffLine = z.infer<typeof StaffLine>;

export const staffReport = endpoint({
  method: 'GET',
  path: '/api/reports/staff',
  tag: 'reports',
  summary: 'Bet4Me per staff member over a range: clients, bets opened and closed, profit, bonuses earned and paid',
  access: 'view:reports',
  query: ReportRangeQuery,
  response: z.object({ ...RangeFields, rows: z.array(StaffLine), total: StaffFigures }),
});

// ---- CSV ----------------------------------------------------------------------------------------

export const exportIncomeReport = csvExport({
  path: '/api/reports/income/export',
  tag: 'reports',
  summary: 'CSV of the income report',
  access: 'view:reports',
  query: ReportQuery,
});
export const exportIncomeBySourceReport = csvExport({
  path: '/api/reports/sources/export',
  tag: 'reports',
  summary: 'CSV of income by source',
  access: 'view:reports',
  query: ReportQuery,
});
export const exportSalesReport = csvExport({
  path: '/api/reports/sales/export',
  tag: 'reports',
  summary: 'CSV of sales by bet category, medium and plan (one line per period and line)',
  access: 'view:reports',
  query: ReportQuery,
});
export const exportSubscribersReport = csvExport({
  path: '/api/reports/subscribers/export',
  tag: 'reports',
  summary: 'CSV of subscribers new, renewed and lapsed (one line per period and category)',
  access: 'view:reports',
  query: ReportQuery,
});
export const exportStaffReport = csvExport({
  path: '/api/reports/staff/export',
  tag: 'reports',
  summary: 'CSV of Bet4Me per staff member',
  access: 'view:reports',
  query: ReportRangeQuery,
});

// ---- the money bridge (decision 068) -----------------------------------------------------------

/** A month (YYYY-MM) or one Nairobi day (YYYY-MM-DD): one of the two. */
export const MoneyBridgeQuery = z
  .object({
    month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Choose a month as YYYY-MM').optional(),
    date: BusinessDay.optional(),
  })
  .refine((q) => (q.month === undefined) !== (q.date === undefined), { message: 'Give a month or a date, not both', path: ['month'] });

export const MONEY_BRIDGE_LINES = [
  'received',
  'sales_invoiced',
  'invoices',
  'credit_notes',
  'credit_deposits',
  'unclaimed',
  'unsettled',
  'refunded',
  'invoiced_next_month',
  'late_postings',
  'late_month',
  'late_invoices',
  'late_credit_notes',
  'reconciling',
  'reconcile_written_later',
  'reconcile_open_earlier',
  'reconcile_no_payment',
  'vat_return_sales',
] as const;

export const MoneyBridgeLine = z.object({
  line: z.enum(MONEY_BRIDGE_LINES),
  label: z.string(),
  count: z.number(),
  amount: z.number(),
  /** The screen that lists the line's rows. */
  link: z.string(),
  /**
   * On a late posting's lines (decision 079): the closed month (YYYY-MM) the documents were written
   * for, and the link to that month's bridge.
   */
  closed_month: z.string().optional(),
  closed_month_link: z.string().optional(),
});

export const moneyBridgeReport = endpoint({
  method: 'GET',
  path: '/api/reports/money-bridge',
  tag: 'reports',
  summary:
    "The period's money bridge: M-Pesa received = sales invoiced (invoices − credit notes) + credit deposits + unclaimed + unsettled refunds + refunded, each to the cent, by the payment's M-Pesa time",
  access: 'view:reports',
  query: MoneyBridgeQuery,
  response: z.object({
    from: z.string(),
    to: z.string(),
    /** Set when the period's month is closed (decision 075): a month's lines are the ones kept at its close. */
    closed: BooksClosed.nullable(),
    lines: z.array(MoneyBridgeLine),
    /** received − the five parts: 0 when the bridge holds (late postings are outside it: their money is a closed month's). */
    difference: z.number(),
  }),
});

export const exportMoneyBridgeReport = csvExport({
  path: '/api/reports/money-bridge/export',
  tag: 'reports',
  summary: 'CSV of the money bridge',
  access: 'view:reports',
  query: MoneyBridgeQuery,
});

/** The reports of /reports, in the order of its tabs (the web's TAB_LABELS and views name each). */
export const REPORTS = ['income', 'sources', 'sales', 'subscribers', 'retention', 'staff', 'promotions', 'promo-codes', 'safer-gambling', 'money-bridge'] as const;
export type ReportName = (typeof REPORTS)[number];
