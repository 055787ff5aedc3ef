import { useCallback, useState } from 'react';
import { Card, Stack, Text, Title } from '@mantine/core';
import { localPhone, type TipsDeposit } from '@betdesk/contract';
import { actionsColumn, DataTable, StatusBadge, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { DateRangeNote } from '@/components/data-table/date-range-note.tsx';
import { RefundButton, RefundedAmount, RefundRequestModal } from '@/components/refund-request/index.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { useTipsDeposits } from '../api/get-tips-deposits.ts';

const columns: DataTableColumn<TipsDeposit>[] = [
  {
    key: 'sender_phone',
    header: 'Phone No',
    width: WIDTH.phone, fit: true,
    // The phone Betdesk knows (M-Pesa's or the matched subscriber's); "hidden by M-Pesa" only when nobody knows it.
    render: (d) =>
      d.sender_phone ? (
        localPhone(d.sender_phone)
      ) : (
        <Text span c="dimmed" title="M-Pesa sent no phone number and no subscriber matches this payment">
          hidden by M-Pesa
        </Text>
      ),
  },
  { key: 'sender_name', header: 'Sender Name', render: (d) => d.sender_name ?? '', card: 'title' },
  {
    key: 'amount',
    header: 'Amount',
    render: (d) => (d.amount === null ? '' : <>{formatMoney(d.amount)}<RefundedAmount payment={d} /></>),
    align: 'right',
    width: WIDTH.money,
    fit: true,
  },
  { key: 'transaction_reference', header: 'Ref No.', render: (d) => d.transaction_reference ?? '', width: WIDTH.ref, fit: true },
  { key: 'transaction_timestamp', header: 'Sent On', render: (d) => formatDateTime(d.transaction_timestamp), width: WIDTH.dateTime, fit: true },
  { key: 'status', header: 'Status', render: (d) => <StatusBadge status={d.status} />, width: WIDTH.status, fit: true },
];

/** /tips/mpesa/all: payments for tips (to a subscriber, or naming a bet category code). */
export function TipsDepositsPage() {
  const table = useTableState('tipsDeposits');
  const deposits = useTipsDeposits(table.query);
  const [refunding, setRefunding] = useState<TipsDeposit | null>(null);
  const stopRefunding = useCallback(() => setRefunding(null), []);
  // Admins ask for a refund from the payment's row (the server refuses anyone else).
  const actions = actionsColumn<TipsDeposit>(90, (d) => <RefundButton payment={d} onClick={() => setRefunding(d)} />);
  return (
    <Stack>
      <Title order={1} size="h2">Tips M-Pesa Transactions</Title>
      <DateRangeNote from={table.from} to={table.to} />
      <Card withBorder>
        <DataTable
          columns={[...columns, actions]}
          rows={deposits.data?.deposits ?? []}
          rowKey={(d) => d.id}
          loading={deposits.isFetching}
          {...table.listProps('Sender name, phone or ref, then Enter', deposits.data, { path: '/api/tips/mpesa/export', filename: 'tips-mpesa-transactions.csv' })}
          dateRange={table.dateRange}
          data-testid="tips-deposits-table"
        />
      </Card>
      <RefundRequestModal payment={refunding} onClose={stopRefunding} />
    </Stack>
  );
}
