import { useState } from 'react';
import { Alert, Button, Card, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { REFUND_STATUSES, type Refund, type RefundStatus } from '@betdesk/contract';
import { actionsColumn, DataTable, StatusBadge, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { totalOf } from '@/components/data-table/list-query.ts';
import { DateRangeNote } from '@/components/data-table/date-range-note.tsx';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { HistoryLink } from '@/components/history-link.tsx';
import { RowMutationButton } from '@/components/row-mutation-button.tsx';
import { REFUND_REASON_LABELS } from '@/components/refund-request/index.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { useRefunds } from '../api/get-refunds.ts';
import { useCancelRefund } from '../api/refund-actions.ts';
import { ApproveRefundModal } from './approve-refund-modal.tsx';
import { InitiatorModal } from './initiator-modal.tsx';
import { ResolveRefundModal } from './resolve-refund-modal.tsx';

const STATUS_LABELS: Record<RefundStatus, string> = {
  awaiting_approval: 'Awaiting approval',
  awaiting_second_approval: 'Awaiting a further approval',
  sending: 'Sending',
  unknown: 'Unknown',
  held: 'Held for review',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The badge's colour word: waiting or held orange, on its way blue, done green, failed red. */
const BADGE_STATUS: Record<RefundStatus, string> = {
  awaiting_approval: 'pending',
  awaiting_second_approval: 'pending',
  sending: 'sending',
  unknown: 'unconfirmed',
  held: 'unconfirmed',
  done: 'paid',
  failed: 'failed',
  cancelled: 'closed',
};

const awaiting = (r: Refund) => r.status === 'awaiting_approval' || r.status === 'awaiting_second_approval';

const columns: DataTableColumn<Refund>[] = [
  { key: 'created_at', header: 'Asked On', render: (r) => formatDateTime(r.created_at), width: WIDTH.dateTime, fit: true },
  { key: 'trans_id', header: 'Payment Ref', render: (r) => r.trans_id ?? '', width: WIDTH.ref, fit: true, card: 'title' },
  {
    key: 'amount',
    header: 'Amount',
    render: (r) => (
      <>
        {formatMoney(r.amount)}
        <Text span size="xs" c="dimmed" display="block">
          by {r.method === 'reversal' ? 'Reversal' : 'B2C'}
        </Text>
      </>
    ),
    align: 'right',
    width: WIDTH.money,
    fit: true,
  },
  {
    key: 'reason',
    header: 'Reason',
    render: (r) => (
      <>
        {REFUND_REASON_LABELS[r.reason]}
        {r.note && (
          <Text span size="xs" c="dimmed" display="block">
            {r.note}
          </Text>
        )}
        <Text span size="xs" c="dimmed" display="block">
          asked by {r.requested_by ?? 'an admin'}
          {r.approved_by && `, approved by ${r.approved_by}`}
        </Text>
      </>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    render: (r) => <StatusBadge status={BADGE_STATUS[r.status]} label={STATUS_LABELS[r.status]} data-testid={`refund-status-${r.id}`} />,
    width: WIDTH.status,
    fit: true,
  },
  {
    key: 'result',
    header: 'M-Pesa',
    render: (r) => (
      <>
        {r.mpesa_receipt}
        {r.result && !r.attention && (
          <Text span size="xs" c={r.status === 'failed' ? 'red.8' : 'dimmed'} display="block">
            {r.result}
          </Text>
        )}
        {r.attention && (
          <Text span size="xs" c="orange.9" display="block" data-testid={`refund-attention-${r.id}`}>
            {r.attention}
          </Text>
        )}
        {r.completed_at && (
          <Text span size="xs" c="dimmed" display="block">
            {formatDateTime(r.completed_at)}
          </Text>
        )}
      </>
    ),
  },
];

/**
 * /refunds (admins): money going back to payers, by status and the day it was asked, with the
 * count of the filter and its amounts refunded (done) apart from asked and failed, the utility
 * account's balance, CSV export, the approval by a second admin with their code or the cancel
 * (decision 036), and the refunds M-Pesa did not settle for an admin to mark (decision 055).
 */
export function RefundsPage() {
  const table = useTableState('refunds');
  const [params, setParams] = useSearchParams();
  const status = (REFUND_STATUSES as readonly string[]).includes(params.get('status') ?? '') ? (params.get('status') as RefundStatus) : undefined;
  const refunds = useRefunds(table.query, status);
  const cancel = useCancelRefund();
  const [approving, setApproving] = useState<Refund | null>(null);
  const [resolving, setResolving] = useState<Refund | null>(null);
  const [settingUp, setSettingUp] = useState(false);
  const data = refunds.data;
  const balance = data?.utility_balance ?? null;

  const setStatus = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set('status', value);
        else next.delete('status');
        next.delete('page');
        return next;
      },
      { replace: true },
    );

  // A row's Group fills its cell, so the fitted width is this first guess: room for all three.
  const actions = actionsColumn<Refund>(250, (r) => (
    <>
      {awaiting(r) && (
        <>
          <Button size="compact-xs" onClick={() => setApproving(r)} data-testid={`approve-refund-${r.id}`}>
            Approve
          </Button>
          <RowMutationButton mutation={cancel} of={r.id} size="compact-xs" variant="subtle" color="red" data-testid={`cancel-refund-${r.id}`}>
            Cancel
          </RowMutationButton>
        </>
      )}
      {r.attention && (
        <Button size="compact-xs" color="orange" onClick={() => setResolving(r)} data-testid={`resolve-refund-${r.id}`}>
          Mark
        </Button>
      )}
      <HistoryLink entity="refund" entityId={r.id} compact />
    </>
  ));

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Refunds
        </Title>
        <Button variant="default" onClick={() => setSettingUp(true)} data-testid="initiator-setup">
          M-Pesa initiator
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Ask for a refund from a payment's row on M-Pesa Transactions or Unclaimed; another admin approves it here with their authenticator code.
      </Text>
      {balance?.low && (
        <Alert color="red" title="The M-Pesa utility account is low" data-testid="utility-balance-low">
          {formatMoney(balance.amount)} as M-Pesa reported on {formatDateTime(balance.at)}: B2C refunds fail once it runs out. Top it up from the
          M-Pesa org portal.
        </Alert>
      )}
      {data && data.needs_admin > 0 && (
        <Alert color="orange" title={`${data.needs_admin === 1 ? '1 refund needs' : `${data.needs_admin} refunds need`} an admin`} data-testid="refunds-need-admin">
          M-Pesa's answers did not settle {data.needs_admin === 1 ? 'it' : 'them'}: held for review (M-Pesa's result does not match the refund) or
          still unknown long after sending. Look for each on the M-Pesa statement (org portal), then <b>Mark</b> it done or failed with what the
          statement shows.{' '}
          <Button variant="subtle" size="compact-xs" onClick={() => setStatus('held')} data-testid="show-held">
            Show held
          </Button>
          <Button variant="subtle" size="compact-xs" onClick={() => setStatus('unknown')} data-testid="show-unknown">
            Show unknown
          </Button>
        </Alert>
      )}
      <DateRangeNote from={table.from} to={table.to} />
      {data && (
        <FigureBoxes
          figures={[
            { label: 'Refunds', value: totalOf(data), testId: 'refunds-count' },
            { label: 'Refunded', value: formatMoney(data.refunded_amount), color: 'grape.8', hint: 'done: back with the payer', testId: 'refunds-refunded' },
            { label: 'Asked', value: formatMoney(data.asked_amount), hint: 'not settled yet', testId: 'refunds-asked' },
            { label: 'Failed', value: formatMoney(data.failed_amount), hint: 'failed or cancelled', testId: 'refunds-failed' },
            {
              label: 'Utility account',
              value: balance ? formatMoney(balance.amount) : 'Not known yet',
              color: balance?.low ? 'red.8' : undefined,
              hint: balance ? `as of ${formatDateTime(balance.at)}` : 'reported by the next B2C refund',
              testId: 'utility-balance',
            },
          ]}
        />
      )}
      <Card withBorder>
        <Stack gap="sm">
          <NativeSelect
            label="Status"
            value={status ?? ''}
            onChange={(e) => setStatus(e.currentTarget.value)}
            data={[{ value: '', label: 'Every status' }, ...REFUND_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))]}
            maw={260}
            data-testid="refund-status-filter"
          />
          <DataTable
            columns={[...columns, actions]}
            rows={data?.refunds ?? []}
            rowKey={(r) => r.id}
            loading={refunds.isFetching}
            sorting={table.sorting}
            dateRange={table.dateRange}
            exportCsv={{ path: '/api/refunds/export', query: { ...table.filters, ...(status ? { status } : {}) }, filename: 'refunds.csv' }}
            paging={table.pagingOf(data)}
            emptyText="No refunds."
            estimatedRowHeight={48}
            data-testid="refunds-table"
          />
        </Stack>
      </Card>
      <ApproveRefundModal refund={approving} onClose={() => setApproving(null)} />
      <ResolveRefundModal refund={resolving} onClose={() => setResolving(null)} />
      <InitiatorModal opened={settingUp} onClose={() => setSettingUp(false)} />
    </Stack>
  );
}
