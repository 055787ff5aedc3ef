import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone, type Client } from '@betdesk/contract';
import { StatusBadge, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format.ts';

/** The /clients table of the spec: name, phone, joined_on, maximum_stake, total_subscriptions, last_login. */
export const clientColumns: DataTableColumn<Client>[] = [
  {
    key: 'name',
    header: 'Name',
    card: 'title',
    render: (c) => (
      <Anchor component={Link} to={`/clients/${c.id}`} data-testid="client-link">
        {c.name}
      </Anchor>
    ),
  },
  { key: 'phone', header: 'Phone', render: (c) => localPhone(c.phone), width: WIDTH.phone, fit: true },
  { key: 'joined_on', header: 'Joined on', render: (c) => formatDate(c.joined_on), width: WIDTH.date, fit: true },
  {
    key: 'maximum_stake',
    header: 'Maximum stake',
    render: (c) => (c.maximum_stake === null ? 'No limit' : formatMoney(c.maximum_stake)),
    align: 'right',
    width: WIDTH.money, fit: true,
  },
  { key: 'total_subscriptions', header: 'Subscriptions', align: 'right', width: WIDTH.count, fit: true },
  {
    key: 'status',
    header: 'Status',
    width: WIDTH.status, fit: true,
    render: (c) => <StatusBadge status={c.status === 1 ? 'active' : 'inactive'} />,
  },
  { key: 'last_login', header: 'Last login', render: (c) => formatDateTime(c.last_login) || 'Never', width: WIDTH.dateTime, fit: true, card: 'hidden' },
];
