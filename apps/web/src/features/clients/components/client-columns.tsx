import { Anchor, Badge } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone, type Client } from '@betdesk/contract';
import type { DataTableColumn } from '@/components/data-table/index.ts';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format.ts';

/** The /clients table of the spec: name, phone, joined_on, maximum_stake, total_subscriptions, last_login. */
export const clientColumns: DataTableColumn<Client>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (c) => (
      <Anchor component={Link} to={`/clients/${c.id}`} data-testid="client-link">
        {c.name}
      </Anchor>
    ),
  },
  { key: 'phone', header: 'Phone', render: (c) => localPhone(c.phone), width: 130 },
  { key: 'joined_on', header: 'Joined on', render: (c) => formatDate(c.joined_on), width: 130 },
  {
    key: 'maximum_stake',
    header: 'Maximum stake',
    render: (c) => (c.maximum_stake === null ? 'No limit' : formatMoney(c.maximum_stake)),
    align: 'right',
    width: 150,
  },
  { key: 'total_subscriptions', header: 'Subscriptions', align: 'right', width: 120 },
  {
    key: 'status',
    header: 'Status',
    width: 100,
    render: (c) => <Badge color={c.status === 1 ? 'green' : 'red'}>{c.status === 1 ? 'Active' : 'Inactive'}</Badge>,
  },
  { key: 'last_login', header: 'Last login', render: (c) => formatDateTime(c.last_login) || 'Never', width: 170 },
];
