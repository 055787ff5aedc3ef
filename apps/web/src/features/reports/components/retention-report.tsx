import { useState } from 'react';
import { Button, Card, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import {
  exportCohortsReport,
  exportRecoveryReport,
  exportRetentionReport,
  RECOVERY_FORMULA,
  RETENTION_FORMULAS,
  type RecoveryFigures as RecoveryFiguresRow,
  type LeverSales,
  type RetentionFigures,
  type RetentionPeriod,
  type RetentionReportSplit,
  type RetentionSplit,
} from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { LoadState } from '@/components/load-state.tsx';
import { formatMoney } from '@/lib/format.ts';
import { downloadFile } from '@/lib/http.ts';
import type { ReportFilter } from '../api/get-reports.ts';
import { useCohortsReport, useRecoveryReport, useRetentionReport } from '../api/get-retention.ts';
import { BarChart, type ChartSeries } from './bar-chart.tsx';
import { ReportCard } from './report-card.tsx';

const asQueryStrings = (query: Record<string, string | undefined>) => Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v ?? '']));
const percent = (r: number | null | undefined) => (r === null || r === undefined ? '–' : `${(r * 100).toFixed(1)}%`);
const SPLITS: { value: 'all' | RetentionReportSplit; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'category', label: 'Category' },
  { value: 'medium', label: 'Medium' },
  { value: 'channel', label: 'First channel' },
  { value: 'lever', label: 'Lever' },
];

const RATE_SERIES: ChartSeries[] = [
  { key: 'renewal', label: 'Renewal rate %', color: 'var(--mantine-color-teal-6)' },
  { key: 'churn', label: 'Churn rate %', color: 'var(--mantine-color-orange-6)' },
];

type Row = RetentionPeriod & { group: string };

/** Reports → Retention: how many renew, how many leave, what a subscriber is worth; each figure with its formula. */
export function RetentionReport({ filter }: { filter: ReportFilter }) {
  const [split, setSplit] = useState<'all' | RetentionReportSplit>('all');
  const query = { from: filter.from, to: filter.to, group: filter.group ?? 'month', ...(split === 'all' ? {} : { group_by: split }) };
  const report = useRetentionReport(query);
  const data = report.data;
  const rows: Row[] = data
    ? split === 'all'
      ? data.periods.map((p) => ({ ...p, group: 'All' }))
      : data.groups.flatMap((g) => g.periods.map((p) => ({ ...p, group: g.label })))
    : [];
  const columns: DataTableColumn<Row>[] = [
    { key: 'group', header: 'Group', minWidth: 140 },
    { key: 'period', header: 'Period', width: 120 },
    { key: 'ended', header: 'Ended', align: 'right', width: 90 },
    { key: 'renewed', header: 'Renewed', align: 'right', width: 100 },
    { key: 'renewal_rate', header: 'Renewal rate', align: 'right', width: 120, render: (r) => percent(r.renewal_rate) },
    { key: 'active_at_start', header: 'Active at start', align: 'right', width: 130 },
    { key: 'churned', header: 'Churned', align: 'right', width: 100 },
    { key: 'churn_rate', header: 'Churn rate', align: 'right', width: 110, render: (r) => percent(r.churn_rate) },
    { key: 'income', header: 'Income', align: 'right', width: 130, render: (r) => formatMoney(r.income) },
    { key: 'arpu', header: 'ARPU', align: 'right', width: 120, render: (r) => (r.arpu === null ? '–' : formatMoney(r.arpu)) },
    { key: 'net_revenue_retention', header: 'Net revenue retention', align: 'right', width: 170, render: (r) => percent(r.net_revenue_retention) },
  ];
  return (
    <ReportCard
      title="Renewal and churn rates"
      name="retention"
      query={report}
      controls={
        <Group gap="sm" align="center">
          <Text size="sm" fw={500} id="retention-split-label">
            Split by
          </Text>
          <SegmentedControl value={split} onChange={(v) => setSplit(v as typeof split)} data={SPLITS} aria-labelledby="retention-split-label" data-testid="retention-split" />
          {data && (
            <Text size="xs" c="dimmed">
              Grace: {data.grace_days} days (Settings → retention_grace_days)
            </Text>
          )}
        </Group>
      }
      figures={
        data && [
          { label: 'Renewal rate', value: percent(data.renewal_rate), hint: RETENTION_FORMULAS.renewal_rate, testId: 'retention-renewal-rate' },
          { label: 'Churn rate', value: `${percent(data.churn_rate)} (${data.churned} left)`, hint: RETENTION_FORMULAS.churn_rate, testId: 'retention-churn' },
          { label: 'Net revenue retention', value: percent(data.net_revenue_retention), hint: RETENTION_FORMULAS.net_revenue_retention },
          { label: 'ARPU', value: data.arpu === null ? '–' : formatMoney(data.arpu), hint: RETENTION_FORMULAS.arpu },
          { label: 'Lifetime value', value: data.ltv === null ? (data.ltv_note?.startsWith('Not enough') ? 'Not enough history' : '–') : formatMoney(data.ltv), hint: data.ltv_note ?? RETENTION_FORMULAS.ltv, testId: 'retention-ltv' },
          {
            label: 'Free trials',
            value: `${data.trials.started} started, ${data.trials.converted} converted`,
            hint: 'Trials are no sale: none of the figures above counts them (a trial converts when its subscriber buys the same category and medium)',
            testId: 'retention-trials',
          },
        ]
      }
      chart={
        <BarChart
          grouped
          series={RATE_SERIES}
          bars={(data?.periods ?? []).map((p) => ({ label: p.period, values: { renewal: (p.renewal_rate ?? 0) * 100, churn: (p.churn_rate ?? 0) * 100 } }))}
          format={(v) => `${v.toFixed(1)}%`}
        />
      }
      table={{
        columns,
        rows,
        rowKey: (r) => `${r.group}:${r.period}`,
        exportCsv: { path: exportRetentionReport.path, query: asQueryStrings(query), filename: `report-retention-${filter.from}-to-${filter.to}.csv` },
        emptyText: 'No subscription in this range',
        'data-testid': 'retention-table',
      }}
    >
      {split === 'lever' && data && <LeverTable groups={data.groups} />}
      <CohortGrid filter={filter} split={split} />
      {/* Payment recovery has no lever: a failed request made no sale. */}
      <RecoveryFigures filter={filter} split={split === 'lever' ? 'all' : split} />
    </ReportCard>
  );
}

type LeverRow = RetentionFigures & { key: string; label: string; lever_sales?: LeverSales | undefined };

const LEVER_COLUMNS: DataTableColumn<LeverRow>[] = [
  { key: 'label', header: 'Lever', minWidth: 150 },
  { key: 'renewal_rate', header: 'Renewal rate', align: 'right', width: 110, render: (r) => percent(r.renewal_rate) },
  { key: 'churn_rate', header: 'Churn rate', align: 'right', width: 100, render: (r) => percent(r.churn_rate) },
  { key: 'arpu', header: 'ARPU', align: 'right', width: 110, render: (r) => (r.arpu === null ? '–' : formatMoney(r.arpu)) },
  { key: 'ltv', header: 'Lifetime value', align: 'right', width: 120, render: (r) => (r.ltv === null ? '–' : formatMoney(r.ltv)) },
  { key: 'sales', header: 'Sales', align: 'right', width: 70, render: (r) => r.lever_sales?.sales ?? 0 },
  { key: 'income', header: 'Their income', align: 'right', width: 120, render: (r) => formatMoney(r.lever_sales?.income ?? 0) },
  { key: 'discount', header: 'Discount given', align: 'right', width: 120, render: (r) => formatMoney(r.lever_sales?.discount ?? 0) },
  { key: 'commission', header: 'Commission', align: 'right', width: 110, render: (r) => formatMoney(r.lever_sales?.commission ?? 0) },
];

/**
 * Split by lever: each lever's subscribers' figures (those its first sale won) and, beside them,
 * what its own sales in the range brought, the discount given on them and the commission owed.
 */
function LeverTable({ groups }: { groups: LeverRow[] }) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">By lever</Title>
      <Text size="xs" c="dimmed">
        Rates, ARPU and lifetime value: the subscribers won by the lever (their first sale). Sales, income, discount and commission: the sales the lever made in the range.
      </Text>
      <DataTable columns={LEVER_COLUMNS} rows={groups} rowKey={(g) => g.key} emptyText="No sale in this range" data-testid="retention-levers" />
    </Stack>
  );
}

type CohortRow = { group: string; month: string; size: number; income: number; cells: { offset: number; active: number; share: number | null; income: number }[] };

/** Split by the Retention card's choice: one grid per group, its rows named by the group. */
function CohortGrid({ filter, split }: { filter: ReportFilter; split: 'all' | RetentionReportSplit }) {
  const [by, setBy] = useState<'subscribers' | 'income'>('subscribers');
  const query = { from: filter.from, to: filter.to, by, ...(split === 'all' ? {} : { group_by: split }) };
  const report = useCohortsReport(query);
  if (report.isError) return <LoadState failed what="cohort grid" />;
  const data = report.data;
  const cohorts: CohortRow[] = data
    ? split === 'all'
      ? data.cohorts.map((c) => ({ ...c, group: 'All' }))
      : data.groups.flatMap((g) => g.cohorts.map((c) => ({ ...c, group: g.label })))
    : [];
  const width = Math.max(0, ...cohorts.map((c) => c.cells.length));
  const columns: DataTableColumn<CohortRow>[] = [
    ...(split === 'all' ? [] : [{ key: 'group', header: 'Group', minWidth: 140 } satisfies DataTableColumn<CohortRow>]),
    { key: 'month', header: 'Cohort', width: 110 },
    { key: 'size', header: 'New', align: 'right', width: 80 },
    ...Array.from({ length: width }, (_, k): DataTableColumn<CohortRow> => ({
      key: `m${k}`,
      header: `Month ${k}`,
      align: 'right',
      width: 100,
      render: (c) => {
        const cell = c.cells[k];
        if (!cell) return '';
        return by === 'income' ? formatMoney(cell.income) : percent(cell.share);
      },
    })),
  ];
  return (
    <Card withBorder data-testid="cohort-grid">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">Cohorts</Title>
        <SegmentedControl
          value={by}
          onChange={(v) => setBy(v as typeof by)}
          data={[
            { value: 'subscribers', label: 'Still active' },
            { value: 'income', label: 'Income' },
          ]}
          aria-label="Cohort measure"
        />
      </Group>
      <Text size="xs" c="dimmed" mb="sm">
        {RETENTION_FORMULAS.cohorts}
      </Text>
      <DataTable
        columns={columns}
        rows={cohorts}
        rowKey={(c) => `${c.group}:${c.month}`}
        loading={report.isFetching}
        exportCsv={{ path: exportCohortsReport.path, query: asQueryStrings(query), filename: `report-cohorts-${filter.from}-to-${filter.to}.csv` }}
        emptyText="No new subscriber in this range"
        data-testid="cohort-table"
      />
    </Card>
  );
}

const RECOVERY_COLUMNS: DataTableColumn<RecoveryRow>[] = [
  { key: 'label', header: 'Group', minWidth: 140 },
  { key: 'failed', header: 'Failed', align: 'right', width: 90, render: (g) => g.failed_by_class.retry + g.failed_by_class.remind + g.failed_by_class.never },
  { key: 'retries', header: 'Retries sent', align: 'right', width: 120 },
  { key: 'reminders', header: 'Reminders sent', align: 'right', width: 140 },
  { key: 'recovered_payments', header: 'Payments recovered', align: 'right', width: 160 },
  { key: 'recovered_amount', header: 'Amount recovered', align: 'right', width: 150, render: (g) => formatMoney(g.recovered_amount) },
];

const RECOVERY_SERIES: ChartSeries[] = [
  {
    key: 'retry',
    label: 'Phone not answered or busy: tried again once',
    hint: "M-Pesa's result codes 1037 (not reached) and 1001 (another session open)",
    color: 'var(--mantine-color-blue-6)',
  },
  {
    key: 'remind',
    label: 'Too little money or cancelled: reminded once',
    hint: "M-Pesa's result codes 1 (insufficient balance) and 1032 (cancelled by the payer)",
    color: 'var(--mantine-color-teal-6)',
  },
  { key: 'never', label: 'Never retried', color: 'var(--mantine-color-gray-6)' },
];

type RecoveryRow = RecoveryFiguresRow & { key: string; label: string };

/** Failed payment requests by class, what was done about them and what came back; split by the Retention card's choice. */
function RecoveryFigures({ filter, split }: { filter: ReportFilter; split: 'all' | RetentionSplit }) {
  const query = { from: filter.from, to: filter.to, ...(split === 'all' ? {} : { group_by: split }) };
  const report = useRecoveryReport(query);
  if (report.isError) return <LoadState failed what="recovery figures" />;
  const data = report.data;
  return (
    <Card withBorder data-testid="recovery-figures">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">Recovery of failed payments</Title>
        <Button
          variant="light"
          onClick={() => {
            downloadFile(exportRecoveryReport.path, asQueryStrings(query), `report-recovery-${filter.from}-to-${filter.to}.csv`).catch(() => {});
          }}
        >
          Export CSV
        </Button>
      </Group>
      {data && (
        <Stack>
          <FigureBoxes
            figures={[
              { label: 'Retries sent', value: data.retries },
              { label: 'Reminders sent', value: data.reminders },
              { label: 'Amount recovered', value: formatMoney(data.recovered_amount), hint: RECOVERY_FORMULA, testId: 'recovery-amount' },
            ]}
          />
          <BarChart
            grouped
            series={RECOVERY_SERIES}
            bars={split === 'all' ? [{ label: 'Failed requests', values: data.failed_by_class }] : data.groups.map((g) => ({ label: g.label, values: g.failed_by_class }))}
            format={(v) => String(v)}
          />
          {split !== 'all' && (
            <DataTable columns={RECOVERY_COLUMNS} rows={data.groups} rowKey={(g) => g.key} emptyText="No failed request in this range" data-testid="recovery-groups" />
          )}
        </Stack>
      )}
    </Card>
  );
}
