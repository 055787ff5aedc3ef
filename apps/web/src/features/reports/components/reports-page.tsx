import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Card, Group, SegmentedControl, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import {
  addDays,
  defaultRange,
  nairobiDayOf,
  periodStart,
  REPORT_GROUPS,
  REPORT_MAX_DAYS,
  REPORTS,
  daysInRange,
  type ReportGroup,
  type ReportName,
} from '@betdesk/contract';
import type { ReportFilter } from '../api/get-reports.ts';
import { MoneyBridgeReport } from './money-bridge-report.tsx';
import { RetentionReport } from './retention-report.tsx';
import { IncomeReport, PromoCodesReport, PromotionsBlockedReport, SaferGamblingReport, SalesReport, SourcesReport, StaffReport, SubscribersReport } from './report-views.tsx';

const TAB_LABELS: Record<ReportName, string> = {
  income: 'Income',
  sources: 'By source',
  sales: 'By category',
  subscribers: 'Subscribers',
  retention: 'Retention',
  staff: 'Bet4Me staff',
  promotions: 'Promotions blocked',
  'promo-codes': 'Promo codes',
  'safer-gambling': 'Safer gambling',
  'money-bridge': 'Money bridge',
};

/** Reports over a range without periods: no grouping to choose. */
const UNGROUPED: readonly ReportName[] = ['staff', 'promotions', 'promo-codes', 'safer-gambling', 'money-bridge'];

const GROUP_LABELS: Record<ReportGroup, string> = { day: 'Day', week: 'Week', month: 'Month' };

const isDay = (value: string | null): value is string => !!value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));

/** The report, range and grouping live in the URL so a view can be bookmarked and shared. */
function stateOf(params: URLSearchParams): { report: ReportName; group: ReportGroup; from: string; to: string } {
  const report = (REPORTS as readonly string[]).includes(params.get('report') ?? '') ? (params.get('report') as ReportName) : 'income';
  const group = (REPORT_GROUPS as readonly string[]).includes(params.get('group') ?? '') ? (params.get('group') as ReportGroup) : 'day';
  const from = params.get('from');
  const to = params.get('to');
  const range = defaultRange({ from: isDay(from) ? from : undefined, to: isDay(to) ? to : undefined, group });
  return { report, group, ...range };
}

/** Ranges an admin asks for most, in Nairobi days ending today. */
function presets(today: string): { label: string; from: string; to: string; group?: ReportGroup }[] {
  const monthStart = periodStart(today, 'month');
  const lastMonthEnd = addDays(monthStart, -1);
  return [
    { label: 'Last 30 days', from: addDays(today, -29), to: today, group: 'day' },
    { label: 'This month', from: monthStart, to: today },
    { label: 'Last month', from: periodStart(lastMonthEnd, 'month'), to: lastMonthEnd },
    { label: 'Last 12 weeks', from: addDays(periodStart(today, 'week'), -77), to: today, group: 'week' },
    { label: 'This year', from: `${today.slice(0, 4)}-01-01`, to: today, group: 'month' },
  ];
}

/** /reports (admin): income, income by source, sales by category, subscribers, Bet4Me staff and promotions blocked. */
export function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const state = stateOf(params);
  const [draft, setDraft] = useState({ from: state.from, to: state.to });
  const today = nairobiDayOf(new Date());

  const apply = (next: Partial<typeof state>) => {
    const merged = { ...state, ...next };
    setParams(new URLSearchParams({ report: merged.report, group: merged.group, from: merged.from, to: merged.to }));
    setDraft({ from: merged.from, to: merged.to });
  };
  const draftError =
    !isDay(draft.from) || !isDay(draft.to)
      ? 'Choose both dates'
      : draft.from > draft.to
        ? 'The end date is before the start date'
        : daysInRange(draft.from, draft.to) > REPORT_MAX_DAYS[state.group]
          ? `By ${state.group}, a report covers at most ${REPORT_MAX_DAYS[state.group]} days`
          : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draftError) apply(draft);
  };

  const filter: ReportFilter = { from: state.from, to: state.to, group: state.group };
  const views: Record<ReportName, ReactNode> = {
    income: <IncomeReport filter={filter} />,
    sources: <SourcesReport filter={filter} />,
    sales: <SalesReport filter={filter} />,
    subscribers: <SubscribersReport filter={filter} />,
    retention: <RetentionReport filter={filter} />,
    staff: <StaffReport filter={filter} />,
    promotions: <PromotionsBlockedReport filter={filter} />,
    'promo-codes': <PromoCodesReport filter={filter} />,
    'safer-gambling': <SaferGamblingReport filter={filter} />,
    'money-bridge': <MoneyBridgeReport month={state.to.slice(0, 7)} />,
  };

  return (
    <Stack>
      <Title order={1} size="h2">Reports</Title>
      <Card withBorder component="form" onSubmit={submit} data-testid="report-filters">
        <Stack gap="sm">
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="From"
              type="date"
              value={draft.from}
              max={today}
              onChange={(e) => setDraft((d) => ({ ...d, from: e.currentTarget.value }))}
              w={160}
              data-testid="report-from"
            />
            <TextInput
              label="To"
              type="date"
              value={draft.to}
              onChange={(e) => setDraft((d) => ({ ...d, to: e.currentTarget.value }))}
              w={160}
              data-testid="report-to"
            />
            <Button type="submit" disabled={!!draftError}>
              Apply
            </Button>
            {!UNGROUPED.includes(state.report) && (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Group by
                </Text>
                <SegmentedControl
                  value={state.group}
                  onChange={(group) => {
                    const g = group as ReportGroup;
                    // A longer grouping never breaks the cap; a shorter one keeps the end and trims the start.
                    const tooLong = daysInRange(state.from, state.to) > REPORT_MAX_DAYS[g];
                    apply({ group: g, ...(tooLong ? { from: addDays(state.to, -(REPORT_MAX_DAYS[g] - 1)) } : {}) });
                  }}
                  data={REPORT_GROUPS.map((g) => ({ value: g, label: GROUP_LABELS[g] }))}
                  data-testid="report-group"
                />
              </Stack>
            )}
          </Group>
          {draftError && (
            <Text size="sm" c="red" data-testid="report-range-error">
              {draftError}
            </Text>
          )}
          <Group gap="xs" wrap="wrap">
            {presets(today).map((p) => (
              <Button key={p.label} size="compact-sm" variant="light" onClick={() => apply({ from: p.from, to: p.to, ...(p.group ? { group: p.group } : {}) })}>
                {p.label}
              </Button>
            ))}
          </Group>
          <Text size="xs" c="dimmed">
            Days are Africa/Nairobi days; weeks start on Monday. {state.from} to {state.to}
            {UNGROUPED.includes(state.report) ? '' : `, by ${state.group}`}.
          </Text>
        </Stack>
      </Card>
      <Tabs value={state.report} onChange={(value) => value && apply({ report: value as ReportName })} keepMounted={false}>
        <Tabs.List>
          {REPORTS.map((r) => (
            <Tabs.Tab key={r} value={r} data-testid={`report-tab-${r}`}>
              {TAB_LABELS[r]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {REPORTS.map((r) => (
          <Tabs.Panel key={r} value={r} pt="md">
            {views[r]}
          </Tabs.Panel>
        ))}
      </Tabs>
      <Alert variant="light" color="gray" p="xs">
        <Text size="xs">
          Income is every M-Pesa payment stored except rejected ones, on the day it was paid. Manual income is what staff recorded
          without M-Pesa: subscriptions and bonus payments entered by hand. Amounts in KES.
        </Text>
      </Alert>
    </Stack>
  );
}
