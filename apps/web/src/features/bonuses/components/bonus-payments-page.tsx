import { Card, Stack, Title } from '@mantine/core';
import type { BonusPayment } from '@betdesk/contract';
import { clientColumns } from '@/components/client-columns.tsx';
import { DataTable, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { DateRangeNote } from '@/components/data-table/date-range-note.tsx';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { useBonusPayments } from '../api/get-bonus-payments.ts';
import { BonusTotals } from './bonus-totals.tsx';

const columns: DataTableColumn<BonusPayment>[] = [
  ...clientColumns<BonusPayment>(),
  { key: 'amount', header: 'Amount', render: (p) => formatMoney(p.amount), align: 'right', width: WIDTH.money, fit: true },
  { key: 'paid_on', header: 'Paid on', render: (p) => formatDateTime(p.paid_on), width: WIDTH.dateTime, fit: true },
  { key: 'description', header: 'Description' },
];

/** /bonuses/paid: Bonus Payments, newest first, sortable, searchable, by date range. */
export function BonusPaymentsPage() {
  const table = useTableState('paidBonuses');
  const payments = useBonusPayments(table.query);
  const data = payments.data;
  return (
    <Stack>
      <Title order={1} size="h2">Bonus Payments</Title>
      <DateRangeNote from={table.from} to={table.to} />
      <BonusTotals totals={data} screen="payments" ranged={Boolean(table.from || table.to)} />
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={data?.bonuses ?? []}
          rowKey={(p) => p.id}
          loading={payments.isFetching}
          {...table.listProps('Client name or phone, then Enter', data, { path: '/api/bonuses/paid/export', filename: 'bonus-payments.csv' })}
          dateRange={table.dateRange}
          data-testid="bonus-payments-table"
        />
      </Card>
    </Stack>
  );
}
