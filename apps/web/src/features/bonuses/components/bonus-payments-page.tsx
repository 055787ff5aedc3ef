import { Anchor, Card, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone, type BonusPayment } from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { useBonusPayments } from '../api/get-bonus-payments.ts';
import { BonusTotals } from './bonus-totals.tsx';

const columns: DataTableColumn<BonusPayment>[] = [
  {
    key: 'name',
    header: 'Client',
    render: (p) => (
      <Anchor component={Link} to={`/clients/${p.client_id}`}>
        {p.name}
      </Anchor>
    ),
  },
  { key: 'phone', header: 'Phone', render: (p) => localPhone(p.phone) },
  { key: 'amount', header: 'Amount', render: (p) => formatMoney(p.amount), align: 'right' },
  { key: 'paid_on', header: 'Paid on', render: (p) => formatDateTime(p.paid_on) },
  { key: 'description', header: 'Description' },
];

/** /bonuses/paid: Bonus Payments. */
export function BonusPaymentsPage() {
  const table = useTableState();
  const payments = useBonusPayments(table.page, table.perPage);
  const data = payments.data;
  return (
    <Stack>
      <Title order={2}>Bonus Payments</Title>
      <BonusTotals totals={data} />
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={data?.bonuses ?? []}
          rowKey={(p) => p.id}
          loading={payments.isFetching}
          exportCsv={{ path: '/api/bonuses/paid/export', filename: 'bonus-payments.csv' }}
          paging={table.paging(data?.total_records ?? 0)}
          data-testid="bonus-payments-table"
        />
      </Card>
    </Stack>
  );
}
