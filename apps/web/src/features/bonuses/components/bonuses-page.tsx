import { Anchor, Card, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone, type Bonus } from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { useBonuses } from '../api/get-bonuses.ts';
import { BonusTotals } from './bonus-totals.tsx';

const columns: DataTableColumn<Bonus>[] = [
  {
    key: 'name',
    header: 'Client',
    render: (b) => (
      <Anchor component={Link} to={`/clients/${b.client_id}`}>
        {b.name}
      </Anchor>
    ),
  },
  { key: 'phone', header: 'Phone', render: (b) => localPhone(b.phone) },
  { key: 'stake', header: 'Stake', render: (b) => formatMoney(b.stake), align: 'right' },
  { key: 'profit', header: 'Profit', render: (b) => formatMoney(b.profit), align: 'right' },
  { key: 'bonus', header: 'Bonus', render: (b) => formatMoney(b.bonus), align: 'right' },
  {
    key: 'pending_bonus',
    header: 'Unpaid',
    align: 'right',
    render: (b) => <span style={{ color: b.pending_bonus > 0 ? 'var(--mantine-color-red-7)' : undefined }}>{formatMoney(b.pending_bonus)}</span>,
  },
  { key: 'earned_on', header: 'Earned on', render: (b) => formatDateTime(b.earned_on) },
];

/** /bonuses (all, searchable) and /bonuses/unpaid (oldest first). */
export function BonusesPage({ which }: { which: 'all' | 'unpaid' }) {
  const table = useTableState();
  const bonuses = useBonuses(which, table.page, table.perPage, which === 'all' ? table.search : '');
  const data = bonuses.data;
  return (
    <Stack>
      <Title order={2}>{which === 'all' ? 'Bonuses' : 'Unpaid Bonuses'}</Title>
      <BonusTotals totals={data} />
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={data?.bonuses ?? []}
          rowKey={(b) => b.bonus_id}
          loading={bonuses.isFetching}
          {...(which === 'all' ? { search: { placeholder: 'Client name or phone, then Enter', onSearch: table.setSearch } } : {})}
          exportCsv={
            which === 'all'
              ? { path: '/api/bonuses/export', query: { search: table.search }, filename: 'bonuses.csv' }
              : { path: '/api/bonuses/unpaid/export', filename: 'unpaid-bonuses.csv' }
          }
          paging={table.paging(data?.total_records ?? 0)}
          data-testid="bonuses-table"
        />
      </Card>
    </Stack>
  );
}
