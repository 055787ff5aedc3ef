import { Badge, Card, Group, Text, TextInput, Title } from '@mantine/core';
import { AGENT_COMMISSION_KIND_LABELS, type AgentStatementLine } from '@betdesk/contract';
import { DataTable, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { LoadState } from '@/components/load-state.tsx';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { useAgentStatement } from '../api/agents.ts';

type Line = AgentStatementLine & { key: number };

const columns: DataTableColumn<Line>[] = [
  {
    key: 'kind',
    header: 'Line',
    width: 170,
    render: (l) => <Badge color={l.kind === 'clawback' ? 'red' : 'teal'}>{AGENT_COMMISSION_KIND_LABELS[l.kind]}</Badge>,
  },
  { key: 'receipt', header: 'Receipt', width: 130 },
  { key: 'paid_on', header: 'Paid on', width: WIDTH.dateTime, fit: true, render: (l) => formatDateTime(l.paid_on) },
  { key: 'payment', header: 'Payment', align: 'right', width: WIDTH.money, fit: true, render: (l) => formatMoney(l.payment) },
  { key: 'percent', header: 'Percent', align: 'right', width: 90, fit: true, render: (l) => `${l.percent} %` },
  { key: 'amount', header: 'Amount', align: 'right', width: WIDTH.money, fit: true, render: (l) => formatMoney(l.amount) },
];

/** An agent's month: the month picker, its lines (commissions, clawbacks) and the totals, the total being the lines' sum. */
export function AgentStatement({ agentId, month, onMonth }: { agentId: number; month: string; onMonth: (month: string) => void }) {
  const statement = useAgentStatement(agentId, month);
  const data = statement.data;
  const lines: Line[] = (data?.lines ?? []).map((l, i) => ({ ...l, key: i }));
  return (
    <Card withBorder data-testid="agent-statement">
      <Group justify="space-between" align="flex-end" mb="sm">
        <Title order={2} size="h4">
          Statement{data ? `: ${data.agent.name}` : ''}
        </Title>
        <TextInput type="month" label="Month" value={month} onChange={(e) => e.currentTarget.value && onMonth(e.currentTarget.value)} data-testid="agent-statement-month" />
      </Group>
      {statement.isError ? (
        <LoadState failed what="statement" />
      ) : (
        <>
          {data && (
            <FigureBoxes
              figures={[
                { label: 'Commissions', value: formatMoney(data.commissions) },
                { label: 'Clawbacks', value: formatMoney(data.clawbacks) },
                { label: 'Total', value: formatMoney(data.total), testId: 'agent-statement-total' },
              ]}
            />
          )}
          <Text size="sm" c="dimmed" my="xs">
            A commission is in the month its payment came; a clawback, of a payment refunded after its commission was written, in the month the refund was seen.
          </Text>
          <DataTable columns={columns} rows={lines} rowKey={(l) => l.key} loading={statement.isFetching} emptyText="No commission in this month" data-testid="agent-statement-table" />
        </>
      )}
    </Card>
  );
}
