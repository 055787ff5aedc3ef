import { Badge, Card, Stack, Text, Title } from '@mantine/core';
import { localPhone, type TipsDeposit } from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { useTipsDeposits } from '../api/get-tips-deposits.ts';

const statusColors: Record<TipsDeposit['status'], string> = { claimed: 'green', unclaimed: 'orange', rejected: 'red' };

const columns: DataTableColumn<TipsDeposit>[] = [
  {
    key: 'sender_phone',
    header: 'Phone No',
    render: (d) => (d.sender_phone ? localPhone(d.sender_phone) : <Text span c="dimmed">hidden</Text>),
  },
  { key: 'sender_name', header: 'Sender Name', render: (d) => d.sender_name ?? '' },
  { key: 'amount', header: 'Amount', render: (d) => (d.amount === null ? '' : formatMoney(d.amount)), align: 'right' },
  { key: 'transaction_reference', header: 'Ref No.', render: (d) => d.transaction_reference ?? '' },
  { key: 'transaction_timestamp', header: 'Sent On', render: (d) => formatDateTime(d.transaction_timestamp) },
  { key: 'status', header: 'Status', render: (d) => <Badge color={statusColors[d.status]}>{d.status}</Badge> },
];

/** /tips/mpesa/all: payments for tips (to a subscriber, or naming a bet category code). */
export function TipsDepositsPage() {
  const table = useTableState();
  const deposits = useTipsDeposits(table.page, table.perPage);
  return (
    <Stack>
      <Title order={2}>Tips M-Pesa Transactions</Title>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={deposits.data?.deposits ?? []}
          rowKey={(d) => d.id}
          loading={deposits.isFetching}
          paging={table.paging(deposits.data?.total_records ?? 0)}
          data-testid="tips-deposits-table"
        />
      </Card>
    </Stack>
  );
}
