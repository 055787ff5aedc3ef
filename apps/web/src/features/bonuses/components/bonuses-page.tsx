import { Card, Stack, Title } from '@mantine/core';
import type { Bonus } from '@betdesk/contract';
import { clientColumns } from '@/components/client-columns.tsx';
import { DataTable, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { DateRangeNote } from '@/components/data-table/date-range-note.tsx';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { useBonuses } from '../api/get-bonuses.ts';
import { BonusTotals } from './bonus-totals.tsx';

const columns: DataTableColumn<Bonus>[] = [
  ...clientColumns<Bonus>(),
  { key: 'stake', header: 'Stake', render: (b) => formatMoney(b.stake), align: 'right', width: WIDTH.money, fit: true },
  { key: 'profit', header: 'Profit', render: (b) => formatMoney(b.profit), align: 'right', width: WIDTH.money, fit: true },
  { key: 'bonus', header: 'Bonus', render: (b) => formatMoney(b.bonus), align: 'right', width: WIDTH.money, fit: true },
  {
    key: 'pending_bonus',
    header: 'Unpaid',
    align: 'right',
    width: WIDTH.money, fit: true,
    render: (b) => <span style={{ color: b.pending_bonus > 0 ? 'var(--mantine-color-red-text)' : undefined }}>{formatMoney(b.pending_bonus)}</span>,
  },
  { key: 'earned_on', header: 'Earned on', render: (b) => formatDateTime(b.earned_on), width: WIDTH.dateTime, fit: true },
];

/** /bonuses and /bonuses/unpaid: newest first, sortable, searchable by client, by date range; totals of the same range. */
export function BonusesPage({ which }: { which: 'all' | 'unpaid' }) {
  const table = useTableState(which === 'all' ? 'bonuses' : 'unpaidBonuses');
  const bonuses = useBonuses(which, table.query);
  const data = bonuses.data;
  return (
    <Stack>
      <Title order={1} size="h2">{which === 'all' ? 'Bonuses' : 'Unpaid Bonuses'}</Title>
      <DateRangeNote from={table.from} to={table.to} />
      <BonusTotals totals={data} screen="bonuses" ranged={Boolean(table.from || table.to)} />
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={data?.bonuses ?? []}
          rowKey={(b) => b.bonus_id}
          loading={bonuses.isFetching}
          {...table.listProps('Client name or phone, then Enter', data, {
            path: which === 'all' ? '/api/bonuses/export' : '/api/bonuses/unpaid/export',
            filename: which === 'all' ? 'bonuses.csv' : 'unpaid-bonuses.csv',
          })}
          dateRange={table.dateRange}
          data-testid="bonuses-table"
        />
      </Card>
    </Stack>
  );
}
