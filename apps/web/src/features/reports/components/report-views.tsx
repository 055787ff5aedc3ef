import { Text } from '@mantine/core';
import {
  BROADCAST_SEGMENT_LABELS,
  INCOME_SOURCE_LABELS,
  PROMOTION_REFUSAL_SOURCE_LABELS,
  type BroadcastSegment,
  type PromotionRefusal,
  type PromotionReportRow,
  type ReportGroup,
  type ReportName,
  type SalesLine,
  type StaffLine,
  type SubscriberLine,
} from '@betdesk/contract';
import type { DataTableColumn } from '@/components/data-table/index.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { exportPaths, usePromoCodesReport, usePromotionsBlockedReport, useReport, useSaferGamblingReport, useStaffReport, type ReportFilter } from '../api/get-reports.ts';
import { AgentsReportCard } from './agents-report.tsx';
import { BarChart, type ChartBar, type ChartSeries } from './bar-chart.tsx';
import { ReportCard } from './report-card.tsx';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const short = (day: string) => `${day.slice(8, 10)} ${MONTHS[Number(day.slice(5, 7)) - 1] ?? ''}`;

/** A period as staff read it: '02 Mar', 'Week of 02 Mar', 'Mar 2026'. */
function periodLabel(period: string, group: ReportGroup): string {
  if (group === 'month') return `${MONTHS[Number(period.slice(5, 7)) - 1] ?? ''} ${period.slice(0, 4)}`;
  return group === 'week' ? `Week of ${short(period)}` : short(period);
}

function chartLabel(period: string, group: ReportGroup): string {
  return group === 'month' ? periodLabel(period, group) : short(period);
}

/** The period column: its name, and the days it covers when the range cuts it short. */
function periodColumn<R extends { period: string; from: string; to: string }>(group: ReportGroup): DataTableColumn<R> {
  return {
    key: 'period',
    header: 'Period',
    width: 190,
    render: (r) => {
      const cut = group !== 'day' && (r.from !== r.period || periodEnd(r.period, group) !== r.to);
      return (
        <span>
          {periodLabel(r.period, group)}
          {cut && (
            <Text span size="xs" c="dimmed">
              {' '}
              ({short(r.from)}–{short(r.to)})
            </Text>
          )}
        </span>
      );
    },
  };
}

function periodEnd(period: string, group: ReportGroup): string {
  if (group === 'day') return period;
  const d = new Date(`${period}T00:00:00Z`);
  if (group === 'week') d.setUTCDate(d.getUTCDate() + 6);
  else d.setUTCMonth(d.getUTCMonth() + 1, 0);
  return d.toISOString().slice(0, 10);
}

const money = <R,>(key: keyof R & string, header: string, width = 140): DataTableColumn<R> => ({
  key,
  header,
  align: 'right',
  width,
  render: (r) => formatMoney(r[key] as number),
});
const count = <R,>(key: keyof R & string, header: string, width = 110): DataTableColumn<R> => ({
  key,
  header,
  align: 'right',
  width,
  render: (r) => (r[key] as number).toLocaleString('en-KE'),
});

/** The chart's bars of a report whose rows are periods. */
function periodBars<R extends { period: string }>(rows: readonly R[] | undefined, group: ReportGroup): ChartBar[] {
  return (rows ?? []).map((r) => ({ label: chartLabel(r.period, group), values: r }));
}

/** A report whose periods each hold lines, as one table row a line with its period. */
function periodLines<L>(rows: readonly { period: string; from: string; to: string; lines: L[] }[] | undefined): (L & { period: string; from: string; to: string })[] {
  return (rows ?? []).flatMap((p) => p.lines.map((l) => ({ ...l, period: p.period, from: p.from, to: p.to })));
}

const csv = (name: ReportName, filter: ReportFilter) => ({
  path: exportPaths[name],
  query: name === 'staff' || name === 'promotions' || name === 'promo-codes' || name === 'safer-gambling' ? { from: filter.from ?? '', to: filter.to ?? '' } : { from: filter.from ?? '', to: filter.to ?? '', group: filter.group ?? 'day' },
  filename: `report-${name}-${filter.from}-to-${filter.to}.csv`,
});

// ---- income -------------------------------------------------------------------------------------

const INCOME_SERIES: ChartSeries[] = [
  { key: 'tips', label: 'Tips', color: 'var(--mantine-color-teal-6)' },
  { key: 'bet4me', label: 'Bet4Me', color: 'var(--mantine-color-blue-6)' },
  { key: 'unclaimed', label: 'Unclaimed', color: 'var(--mantine-color-orange-5)' },
];

export function IncomeReport({ filter }: { filter: ReportFilter }) {
  const report = useReport('income', filter);
  const data = report.data;
  const group = data?.group ?? filter.group ?? 'day';
  type Row = NonNullable<typeof data>['rows'][number];
  const columns: DataTableColumn<Row>[] = [
    periodColumn<Row>(group),
    money<Row>('tips', 'Tips'),
    money<Row>('bet4me', 'Bet4Me'),
    money<Row>('unclaimed', 'Unclaimed'),
    money<Row>('total', 'Total'),
    count<Row>('count', 'Payments'),
  ];
  return (
    <ReportCard
      title="M-Pesa income"
      name="income"
      query={report}
      figures={
        data && [
          { label: 'Total income', value: formatMoney(data.total.total), testId: 'income-total' },
          { label: 'Tips', value: formatMoney(data.total.tips), testId: 'income-tips' },
          { label: 'Bet4Me', value: formatMoney(data.total.bet4me), testId: 'income-bet4me' },
          { label: 'Unclaimed', value: formatMoney(data.total.unclaimed), testId: 'income-unclaimed' },
        ]
      }
      chart={<BarChart series={INCOME_SERIES} bars={periodBars(data?.rows, group)} format={formatMoney} data-testid="income-report-chart" />}
      note={
        <Text size="sm" c="dimmed" mb="xs" data-testid="income-count">
          {data ? `${data.total.count.toLocaleString('en-KE')} ${data.total.count === 1 ? 'payment' : 'payments'}` : ''}
        </Text>
      }
      table={{ columns, rows: data?.rows ?? [], rowKey: (r) => r.period, exportCsv: csv('income', filter), emptyText: 'No period in this range', 'data-testid': 'income-table' }}
    />
  );
}

// ---- by source ----------------------------------------------------------------------------------

const SOURCE_SERIES: ChartSeries[] = [
  { key: 'c2b', label: INCOME_SOURCE_LABELS.c2b, color: 'var(--mantine-color-teal-6)' },
  { key: 'stk', label: INCOME_SOURCE_LABELS.stk, color: 'var(--mantine-color-blue-6)' },
  { key: 'pull', label: INCOME_SOURCE_LABELS.pull, color: 'var(--mantine-color-violet-5)' },
  { key: 'statement', label: INCOME_SOURCE_LABELS.statement, color: 'var(--mantine-color-grape-4)' },
  { key: 'manual', label: 'Manual', color: 'var(--mantine-color-orange-5)' },
];

export function SourcesReport({ filter }: { filter: ReportFilter }) {
  const report = useReport('sources', filter);
  const data = report.data;
  const group = data?.group ?? filter.group ?? 'day';
  type Row = NonNullable<typeof data>['rows'][number];
  const columns: DataTableColumn<Row>[] = [
    periodColumn<Row>(group),
    money<Row>('c2b', 'C2B'),
    money<Row>('stk', 'STK'),
    money<Row>('pull', 'Pull'),
    money<Row>('statement', 'Statement'),
    money<Row>('mpesa', 'M-Pesa total'),
    money<Row>('manual', 'Manual'),
    money<Row>('total', 'Total'),
  ];
  return (
    <ReportCard
      title="Income by source"
      name="sources"
      query={report}
      figures={
        data && [
          { label: 'M-Pesa', value: formatMoney(data.total.mpesa), testId: 'sources-mpesa' },
          { label: 'C2B + STK', value: formatMoney(data.total.c2b + data.total.stk) },
          { label: 'Pull + statement', value: formatMoney(data.total.pull + data.total.statement) },
          { label: 'Manual', value: formatMoney(data.total.manual), testId: 'sources-manual' },
        ]
      }
      chart={<BarChart series={SOURCE_SERIES} bars={periodBars(data?.rows, group)} format={formatMoney} />}
      table={{ columns, rows: data?.rows ?? [], rowKey: (r) => r.period, exportCsv: csv('sources', filter), emptyText: 'No period in this range', 'data-testid': 'sources-table' }}
    />
  );
}

// ---- sales by bet category and medium --------------------------------------------------------------

const lineName = (l: SalesLine) => (l.kind === 'tips' ? `${l.name}${l.medium ? ` (${l.medium.toUpperCase()})` : ''}` : `Bet4Me: ${l.name}`);

export function SalesReport({ filter }: { filter: ReportFilter }) {
  const report = useReport('sales', filter);
  const data = report.data;
  const group = data?.group ?? filter.group ?? 'day';
  type Row = SalesLine & { period: string; from: string; to: string };
  const columns: DataTableColumn<Row>[] = [
    periodColumn<Row>(group),
    { key: 'name', header: 'Bet category or plan', render: (l) => lineName(l), minWidth: 200 },
    { key: 'medium', header: 'Medium', render: (l) => l.medium?.toUpperCase() ?? '—', width: 100, fit: true },
    count<Row>('count', 'Subscriptions', 130),
    money<Row>('amount', 'Amount'),
  ];
  return (
    <ReportCard
      title="Subscriptions sold by bet category, medium and plan (whole range)"
      name="sales"
      query={report}
      chart={
        <BarChart
          series={[{ key: 'amount', label: 'Amount', color: 'var(--mantine-color-teal-6)' }]}
          bars={(data?.total ?? []).map((l) => ({ label: lineName(l), values: { amount: l.amount } }))}
          format={formatMoney}
        />
      }
      table={{ columns, rows: periodLines(data?.rows), rowKey: (r) => `${r.period}:${r.key}`, exportCsv: csv('sales', filter), emptyText: 'Nothing sold in this range', 'data-testid': 'sales-table' }}
    />
  );
}

// ---- subscribers --------------------------------------------------------------------------------

const SUBSCRIBER_SERIES: ChartSeries[] = [
  { key: 'new', label: 'New', color: 'var(--mantine-color-teal-6)' },
  { key: 'renewed', label: 'Renewed', color: 'var(--mantine-color-blue-6)' },
  { key: 'lapsed', label: 'Lapsed', color: 'var(--mantine-color-red-5)' },
];

export function SubscribersReport({ filter }: { filter: ReportFilter }) {
  const report = useReport('subscribers', filter);
  const data = report.data;
  const group = data?.group ?? filter.group ?? 'day';
  type Row = SubscriberLine & { period: string; from: string; to: string };
  const columns: DataTableColumn<Row>[] = [
    periodColumn<Row>(group),
    { key: 'category', header: 'Bet category', minWidth: 180 },
    count<Row>('new', 'New'),
    count<Row>('renewed', 'Renewed'),
    count<Row>('lapsed', 'Lapsed'),
  ];
  const plain = (n: number) => n.toLocaleString('en-KE');
  const sum = (key: 'new' | 'renewed' | 'lapsed') => plain((data?.total ?? []).reduce((s, l) => s + l[key], 0));
  return (
    <ReportCard
      title="Tips subscribers: new, renewed and lapsed"
      name="subscribers"
      query={report}
      figures={
        data && [
          { label: 'New', value: sum('new') },
          { label: 'Renewed', value: sum('renewed') },
          { label: 'Lapsed', value: sum('lapsed') },
        ]
      }
      chart={<BarChart grouped series={SUBSCRIBER_SERIES} bars={periodBars(data?.rows, group)} format={plain} />}
      table={{
        columns,
        rows: periodLines(data?.rows),
        rowKey: (r) => `${r.period}:${r.bet_category_id ?? 0}`,
        exportCsv: csv('subscribers', filter),
        emptyText: 'No subscriber came or went in this range',
        'data-testid': 'subscribers-table',
      }}
    />
  );
}

// ---- Bet4Me per staff member --------------------------------------------------------------------

const STAFF_SERIES: ChartSeries[] = [
  { key: 'profit', label: 'Profit', color: 'var(--mantine-color-teal-6)' },
  { key: 'bonus_earned', label: 'Bonus earned', color: 'var(--mantine-color-blue-6)' },
  { key: 'bonus_paid', label: 'Bonus paid', color: 'var(--mantine-color-grape-5)' },
];

export function StaffReport({ filter }: { filter: ReportFilter }) {
  const report = useStaffReport(filter);
  const data = report.data;
  const columns: DataTableColumn<StaffLine>[] = [
    { key: 'name', header: 'Staff member', minWidth: 160 },
    count<StaffLine>('clients', 'Clients', 90),
    count<StaffLine>('bets_opened', 'Bets opened', 110),
    money<StaffLine>('stake', 'Stake'),
    count<StaffLine>('bets_closed', 'Bets closed', 110),
    money<StaffLine>('profit', 'Profit'),
    money<StaffLine>('bonus_earned', 'Bonus earned'),
    money<StaffLine>('bonus_paid', 'Bonus paid'),
  ];
  return (
    <ReportCard
      title="Bet4Me per staff member"
      name="staff"
      query={report}
      figures={
        data && [
          { label: 'Bets opened', value: data.total.bets_opened.toLocaleString('en-KE') },
          { label: 'Profit', value: formatMoney(data.total.profit) },
          { label: 'Bonus earned', value: formatMoney(data.total.bonus_earned) },
          { label: 'Bonus paid', value: formatMoney(data.total.bonus_paid) },
        ]
      }
      chart={<BarChart grouped series={STAFF_SERIES} bars={(data?.rows ?? []).map((r) => ({ label: r.name, values: r }))} format={formatMoney} />}
      table={{ columns, rows: data?.rows ?? [], rowKey: (r) => r.user_id ?? 0, exportCsv: csv('staff', filter), emptyText: 'No Bet4Me activity in this range', 'data-testid': 'staff-table' }}
    />
  );
}

// ---- promotions blocked (decision 061) ------------------------------------------------------------

const REFUSAL_SERIES: ChartSeries[] = [{ key: 'refusals', label: 'Refusals', color: 'var(--mantine-color-red-6)' }];
/** A rule as the chart names it: the words before its source. */
const ruleLabel = (rule: string) => rule.replace(/\s*\(.*\)\s*$/, '').split(':')[0]!;

export function PromotionsBlockedReport({ filter }: { filter: ReportFilter }) {
  const report = usePromotionsBlockedReport(filter);
  const data = report.data;
  const columns: DataTableColumn<PromotionRefusal>[] = [
    { key: 'created_on', header: 'Refused On', width: 150, fit: true, render: (r) => formatDateTime(r.created_on) },
    {
      key: 'source',
      header: 'What',
      width: 200,
      render: (r) =>
        `${PROMOTION_REFUSAL_SOURCE_LABELS[r.source]}: ${r.source === 'broadcast' ? (BROADCAST_SEGMENT_LABELS[r.target as BroadcastSegment] ?? r.target) : r.target}`,
    },
    { key: 'words', header: 'Words', width: 180, render: (r) => r.blocked.map((b) => `"${b.word}"`).join(', ') },
    { key: 'rules', header: 'Why', minWidth: 220, render: (r) => [...new Set(r.blocked.map((b) => ruleLabel(b.rule)))].join('; ') },
    {
      key: 'message',
      header: 'Message',
      minWidth: 220,
      render: (r) => (
        <Text size="sm" lineClamp={2} title={r.message}>
          {r.message}
        </Text>
      ),
    },
    { key: 'created_by', header: 'By', width: 140, render: (r) => r.created_by ?? '' },
  ];
  return (
    <ReportCard
      title="Promotions blocked, by rule"
      name="promotions"
      query={report}
      figures={data && [{ label: 'Refused', value: data.total.toLocaleString('en-KE') }]}
      chart={
        <BarChart
          grouped
          series={REFUSAL_SERIES}
          bars={(data?.by_rule ?? []).map((r) => ({ label: ruleLabel(r.rule), values: r }))}
          format={(v) => v.toLocaleString('en-KE')}
        />
      }
      note={
        <Text size="sm" c="dimmed" mb="xs">
          Broadcasts and SMS templates refused because they made a claim gambling promotion may not make (setting rg_promotion_rules).
        </Text>
      }
      table={{
        columns,
        rows: data?.rows ?? [],
        rowKey: (r) => r.id,
        exportCsv: csv('promotions', filter),
        emptyText: 'No promotion was blocked in this range',
        'data-testid': 'promotions-table',
      }}
    />
  );
}

// ---- promo codes (decision 077) -----------------------------------------------------------------

const PROMO_SERIES: ChartSeries[] = [
  { key: 'income', label: 'Income', color: 'var(--mantine-color-teal-6)' },
  { key: 'discount', label: 'Discount given', color: 'var(--mantine-color-orange-5)' },
];

export function PromoCodesReport({ filter }: { filter: ReportFilter }) {
  const report = usePromoCodesReport(filter);
  const data = report.data;
  const rows = data?.rows ?? [];
  const columns: DataTableColumn<PromotionReportRow>[] = [
    { key: 'code', header: 'Code', width: 130 },
    count<PromotionReportRow>('uses', 'Uses', 90),
    money<PromotionReportRow>('income', 'Income'),
    money<PromotionReportRow>('discount', 'Discount given'),
    count<PromotionReportRow>('renewed_30', 'Bought again in 30 days', 190),
    count<PromotionReportRow>('renewed_90', 'Bought again in 90 days', 190),
  ];
  const sum = (key: 'uses' | 'income' | 'discount') => rows.reduce((s, r) => s + Math.round(r[key] * 100), 0) / 100;
  return (
    <ReportCard
      title="Promo codes, per code"
      name="promo-codes"
      query={report}
      figures={
        data && [
          { label: 'Uses', value: sum('uses').toLocaleString('en-KE'), testId: 'promo-uses' },
          { label: 'Income', value: formatMoney(sum('income')) },
          { label: 'Discount given', value: formatMoney(sum('discount')) },
        ]
      }
      chart={<BarChart grouped series={PROMO_SERIES} bars={rows.map((r) => ({ label: r.code, values: r }))} format={formatMoney} />}
      note={
        <Text size="sm" c="dimmed" mb="xs">
          Sales made with a code on the days of the range, at the price paid; the discount is the list price less that price. Bought again: buyers
          who paid for a package again within 30 or 90 days of the sale.
        </Text>
      }
      table={{ columns, rows, rowKey: (r) => r.code_id, exportCsv: csv('promo-codes', filter), emptyText: 'No sale with a promo code in this range', 'data-testid': 'promo-codes-report-table' }}
    >
      <AgentsReportCard filter={filter} />
    </ReportCard>
  );
}

// ---- safer gambling (decision 059) --------------------------------------------------------------

const SAFER_SERIES: ChartSeries[] = [
  { key: 'exclusions_started', label: 'Exclusions started', color: 'var(--mantine-color-red-6)' },
  { key: 'exclusions_ended', label: 'Exclusions ended', color: 'var(--mantine-color-gray-6)' },
  { key: 'sales_refused_excluded', label: 'Sales refused (excluded)', color: 'var(--mantine-color-orange-5)' },
  { key: 'sales_refused_under_18', label: 'Sales refused (under 18)', color: 'var(--mantine-color-grape-5)' },
];

export function SaferGamblingReport({ filter }: { filter: ReportFilter }) {
  const report = useSaferGamblingReport(filter);
  const data = report.data;
  type Row = NonNullable<typeof data>['rows'][number];
  const columns: DataTableColumn<Row>[] = [
    { key: 'month', header: 'Month', width: 110 },
    count<Row>('exclusions_started', 'Exclusions started', 150),
    count<Row>('exclusions_ended', 'Exclusions ended', 150),
    count<Row>('sales_refused_excluded', 'Sales refused: excluded', 190),
    count<Row>('sales_refused_under_18', 'Sales refused: under 18', 190),
  ];
  const n = (v: number) => v.toLocaleString('en-KE');
  return (
    <ReportCard
      title="Safer gambling, by month"
      name="safer-gambling"
      query={report}
      figures={
        data && [
          { label: 'Exclusions started', value: n(data.total.exclusions_started), testId: 'safer-started' },
          { label: 'Exclusions ended', value: n(data.total.exclusions_ended) },
          { label: 'Sales refused: excluded', value: n(data.total.sales_refused_excluded) },
          { label: 'Sales refused: under 18', value: n(data.total.sales_refused_under_18) },
        ]
      }
      chart={<BarChart grouped series={SAFER_SERIES} bars={(data?.rows ?? []).map((r) => ({ label: r.month, values: r }))} format={n} />}
      table={{ columns, rows: data?.rows ?? [], rowKey: (r) => r.month, exportCsv: csv('safer-gambling', filter), emptyText: 'No month in this range', 'data-testid': 'safer-gambling-table' }}
    />
  );
}
