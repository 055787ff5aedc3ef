import { Anchor, Badge } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone, type Bet } from '@betdesk/contract';
import type { DataTableColumn } from '@/components/data-table/index.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';

export const betColumns: DataTableColumn<Bet>[] = [
  {
    key: 'name',
    header: 'Client',
    render: (b) => (
      <Anchor component={Link} to={`/clients/${b.client_id}`}>
        {b.name}
      </Anchor>
    ),
  },
  { key: 'phone', header: 'Phone', render: (b) => localPhone(b.phone), width: 130 },
  { key: 'description', header: 'Bet' },
  { key: 'stake', header: 'Stake', render: (b) => formatMoney(b.stake), align: 'right', width: 130 },
  {
    key: 'profit',
    header: 'Profit',
    align: 'right',
    width: 130,
    render: (b) => (b.profit === null ? '' : <span style={{ color: b.profit < 0 ? 'var(--mantine-color-red-7)' : undefined }}>{formatMoney(b.profit)}</span>),
  },
  { key: 'bonus', header: 'Bonus', render: (b) => (b.bonus === null ? '' : formatMoney(b.bonus)), align: 'right', width: 120 },
  { key: 'opened_on', header: 'Opened on', render: (b) => formatDateTime(b.opened_on), width: 170 },
  {
    key: 'status',
    header: 'Status',
    width: 90,
    render: (b) => <Badge color={b.status === 'open' ? 'blue' : 'gray'}>{b.status}</Badge>,
  },
];
