import { Card, Text, Title } from '@mantine/core';
import { exportAgentReport, type AgentReportRow } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { LoadState } from '@/components/load-state.tsx';
import { formatMoney } from '@/lib/format.ts';
import { useAgentsReport, type ReportFilter } from '../api/get-reports.ts';

const money = (key: 'discount' | 'income' | 'commission' | 'clawback' | 'net', header: string): DataTableColumn<AgentReportRow> => ({
  key,
  header,
  align: 'right',
  width: 120,
  fit: true,
  render: (r) => formatMoney(r[key]),
});
const count = (key: 'referees' | 'renewed_30' | 'renewed_90' | 'payments', header: string): DataTableColumn<AgentReportRow> => ({
  key,
  header,
  align: 'right',
  width: 110,
  fit: true,
  render: (r) => r[key].toLocaleString('en-KE'),
});

const columns: DataTableColumn<AgentReportRow>[] = [
  { key: 'name', header: 'Agent', minWidth: 150 },
  { key: 'referral_code', header: 'Code', width: 90, fit: true },
  count('referees', 'New referees'),
  money('discount', 'Discount'),
  count('renewed_30', 'Again in 30 d'),
  count('renewed_90', 'Again in 90 d'),
  count('payments', 'Payments'),
  money('income', 'Income'),
  money('commission', 'Commission'),
  money('clawback', 'Clawback'),
  money('net', 'Net'),
];

/**
 * Reports → Promo codes, under the codes: the agents' report over the same range, with its CSV
 * (decision 094): the same figures as a code's row (uses, discount, bought again within 30 and 90
 * days) beside what the agent's referees paid and the commission it earned.
 */
export function AgentsReportCard({ filter }: { filter: ReportFilter }) {
  const report = useAgentsReport(filter);
  if (report.isError) return <LoadState failed what="agents' report" />;
  const query = { from: filter.from ?? '', to: filter.to ?? '' };
  return (
    <Card withBorder data-testid="report-agents">
      <Title order={2} size="h4" mb="xs">
        Agents, per agent
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        New referees: first purchases with the agent&apos;s code in the range, their discount, and how many of them bought again within 30 and 90
        days. Payments and income: every payment of the agent&apos;s referees received in the
        range. Commission: written on those payments; clawback: written in the range, of refunded payments.
      </Text>
      <DataTable
        columns={columns}
        rows={report.data?.rows ?? []}
        rowKey={(r) => r.agent_id}
        loading={report.isFetching}
        exportCsv={{ path: exportAgentReport.path, query, filename: `report-agents-${filter.from}-to-${filter.to}.csv` }}
        emptyText="No agent registered"
        data-testid="agents-report-table"
      />
    </Card>
  );
}
