import { Anchor, Card, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone, type SubscriberRow } from '@betdesk/contract';
import { DataTable, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDate } from '@/lib/format.ts';
import { useSubscribers, type SubscribersScope } from '../api/get-subscribers.ts';

const columns: DataTableColumn<SubscriberRow>[] = [
  {
    key: 'name',
    header: 'Name',
    card: 'title',
    render: (s) => (
      <Anchor component={Link} to={`/tips/subscribers/view/${s.id}`}>
        {s.name}
      </Anchor>
    ),
  },
  { key: 'phone', header: 'Phone No', render: (s) => localPhone(s.phone), width: WIDTH.phone, fit: true },
  { key: 'joined_on', header: 'Joined On', render: (s) => formatDate(s.joined_on), width: WIDTH.date, fit: true },
  { key: 'number_of_subscriptions', header: 'Subscriptions', align: 'right', width: WIDTH.count, fit: true },
];

/** /tips/subscribers/active and /tips/subscribers/all: both read the active endpoint (spec 2). */
export function SubscribersPage({ scope }: { scope: SubscribersScope }) {
  const table = useTableState('tipsSubscribers');
  const subscribers = useSubscribers(scope, table.query);
  return (
    <Stack>
      <Title order={1} size="h2">{scope === 'all' ? 'All Subscribers' : 'Active Subscribers'}</Title>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={subscribers.data?.subscribers ?? []}
          rowKey={(s) => s.id}
          loading={subscribers.isFetching}
          {...table.listProps('Name or phone, then Enter', subscribers.data)}
          data-testid="subscribers-table"
        />
      </Card>
    </Stack>
  );
}
