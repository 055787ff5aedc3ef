import { useState } from 'react';
import { Alert, Button, Card, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { AGENT_PAYOUT_STATUS_LABELS, AGENT_PAYOUT_STATUSES, localPhone, nairobiDayOf, type AgentPayout, type AgentPayoutStatus } from '@betdesk/contract';
import { ApproveWithCodeModal } from '@/components/approve-with-code-modal.tsx';
import { actionsColumn, DataTable, StatusBadge, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { HistoryLink } from '@/components/history-link.tsx';
import { useUser } from '@/lib/auth.ts';
import { isHttpError } from '@/lib/http.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { approvePayoutWithCode, payoutsKey, useAgentPayouts, useMakeAgentPayouts } from '../api/agents.ts';

/** The badge's colour word, as refunds': waiting orange, on its way blue, paid green, failed red. */
const BADGE_STATUS: Record<AgentPayoutStatus, string> = {
  awaiting_approval: 'pending',
  sending: 'sending',
  unknown: 'unconfirmed',
  held: 'unconfirmed',
  paid: 'paid',
  failed: 'failed',
};

/** The month before this one (Nairobi): the last month that may be paid out. */
function lastClosedMonth(): string {
  const [y, m] = nairobiDayOf(new Date()).slice(0, 7).split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

const columns: DataTableColumn<AgentPayout>[] = [
  { key: 'month', header: 'Month', width: 90, fit: true },
  {
    key: 'agent_name',
    header: 'Agent',
    minWidth: 160,
    card: 'title',
    render: (p) => (
      <>
        <Text fw={600} size="sm">
          {p.agent_name}
        </Text>
        <Text span size="xs" c="dimmed" display="block">
          {localPhone(p.phone)}
        </Text>
      </>
    ),
  },
  { key: 'commissions', header: 'Commissions', align: 'right', width: WIDTH.money, fit: true, render: (p) => formatMoney(p.commissions) },
  { key: 'carried', header: 'Carried', align: 'right', width: WIDTH.money, fit: true, render: (p) => formatMoney(p.carried) },
  { key: 'amount', header: 'Sent', align: 'right', width: WIDTH.money, fit: true, render: (p) => <Text fw={600} size="sm">{formatMoney(p.amount)}</Text> },
  {
    key: 'status',
    header: 'Status',
    width: WIDTH.status,
    fit: true,
    render: (p) => (
      <>
        <StatusBadge status={BADGE_STATUS[p.status]} label={AGENT_PAYOUT_STATUS_LABELS[p.status]} data-testid={`payout-status-${p.id}`} />
        <Text span size="xs" c="dimmed" display="block">
          asked by {p.requested_by ?? 'an admin'}
          {p.approved_by && `, approved by ${p.approved_by}`}
        </Text>
      </>
    ),
  },
  {
    key: 'result',
    header: 'M-Pesa',
    minWidth: 140,
    render: (p) => (
      <>
        {p.mpesa_receipt}
        {p.result && (
          <Text span size="xs" c={p.status === 'failed' || p.status === 'held' ? 'red.8' : 'dimmed'} display="block">
            {p.result}
          </Text>
        )}
        {p.completed_at && (
          <Text span size="xs" c="dimmed" display="block">
            {formatDateTime(p.completed_at)}
          </Text>
        )}
      </>
    ),
  },
];

/**
 * The agents' payouts (decision 093): an admin asks a closed month's payouts (one per agent whose
 * balance reaches a shilling), another admin approves each with their authenticator code, and B2C
 * sends it. The requester sees no Approve button on their own payouts (the server refuses them too).
 */
export function AgentPayouts() {
  const me = useUser();
  const table = useTableState(undefined, { prefix: 'payouts' });
  const [params, setParams] = useSearchParams();
  const status = (AGENT_PAYOUT_STATUSES as readonly string[]).includes(params.get('payouts_status') ?? '')
    ? (params.get('payouts_status') as AgentPayoutStatus)
    : undefined;
  const payouts = useAgentPayouts(table.query, status);
  const make = useMakeAgentPayouts();
  const [month, setMonth] = useState(lastClosedMonth);
  const [approving, setApproving] = useState<AgentPayout | null>(null);

  const setStatus = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set('payouts_status', value);
        else next.delete('payouts_status');
        return next;
      },
      { replace: true },
    );

  const actions = actionsColumn<AgentPayout>(170, (p) => (
    <>
      {p.status === 'awaiting_approval' && p.requested_by_id !== me?.id && (
        <Button size="compact-xs" onClick={() => setApproving(p)} aria-label={`Approve the payout to ${p.agent_name}`} data-testid={`approve-payout-${p.id}`}>
          Approve
        </Button>
      )}
      <HistoryLink entity="agent_payout" entityId={p.id} compact />
    </>
  ));
  // A month that has not ended is refused under the month field (every refusal also shows as a notice).
  const monthError = isHttpError(make.error) ? (make.error.errors?.month?.[0] ?? null) : null;

  return (
    <Card withBorder data-testid="agent-payouts">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Payouts
        </Title>
        <Text size="sm" c="dimmed">
          Once a month has ended, ask for its payouts: each agent is sent their commissions by M-Pesa (B2C) less what earlier months left (a clawback, a
          failed payout), in whole shillings; cents and a negative balance carry to the next payout. Another admin approves each with their authenticator
          code.
        </Text>
        <Group align="flex-end">
          <TextInput
            type="month"
            label="Month to pay"
            value={month}
            onChange={(e) => setMonth(e.currentTarget.value)}
            error={monthError}
            data-testid="payout-month"
          />
          <Button onClick={() => make.mutate(month)} loading={make.isPending} data-testid="make-payouts">
            Ask for payouts
          </Button>
        </Group>
        {make.data && (
          <Alert color={make.data.created > 0 ? 'teal' : 'blue'} data-testid="payouts-made">
            {make.data.info}
          </Alert>
        )}
        <NativeSelect
          label="Status"
          value={status ?? ''}
          onChange={(e) => setStatus(e.currentTarget.value)}
          data={[{ value: '', label: 'Every status' }, ...AGENT_PAYOUT_STATUSES.map((s) => ({ value: s, label: AGENT_PAYOUT_STATUS_LABELS[s] }))]}
          maw={260}
          data-testid="payout-status-filter"
        />
        <DataTable
          columns={[...columns, actions]}
          rows={payouts.data?.payouts ?? []}
          rowKey={(p) => p.id}
          loading={payouts.isFetching}
          paging={table.pagingOf(payouts.data)}
          emptyText="No payout asked yet"
          estimatedRowHeight={48}
          data-testid="payouts-table"
        />
      </Stack>
      <ApproveWithCodeModal
        opened={approving !== null}
        onClose={() => setApproving(null)}
        title="Approve this payout"
        summary={
          approving && (
            <>
              {formatMoney(approving.amount)} for {approving.month} goes to {approving.agent_name} ({localPhone(approving.phone)}) by M-Pesa B2C, asked by{' '}
              {approving.requested_by ?? 'another admin'}. Once approved it is sent and cannot be stopped.
            </>
          )
        }
        approve={(code) => approvePayoutWithCode(approving!.id, code)}
        changes={payoutsKey}
        submitLabel="Approve and send"
        testId="approve-payout-modal"
      />
    </Card>
  );
}
