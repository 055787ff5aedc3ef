import { Anchor, Card, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone, type SubscriberRow } from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDate } from '@/lib/format.ts';
import { useSubscribers, type SubscribersScope } from '../api/get-subscribers.ts';

const columns: DataTableColumn<SubscriberRow>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (s) => (
      <Anchor component={Link} to={`/tips/subscribers/view/${s.id}`}>
        {s.name}
      </Anchor>
    ),
  },
  { key: 'phone', header: 'Phone No', render: (s) => localPhone(s.phone) },
  { key: 'joined_on', header: 'Joined On', render: (s) => formatDate(s.joined_on) },
  { key: 'number_of_subscriptions', header: 'Subscriptions', align: 'right' },
];

/** /tips/subscribers/active and /tips/subscribers/all: both read the active endpoint (spec 2). */
export function SubscribersPage({ scope }: { scope: SubscribersScope }) {
  const table = useTableState();
  const subscribers = useSubscribers(scope, table.page, table.perPage);
  return (
    <Stack>
      <Title order={2}>{scope === 'all' ? 'All Subscribers' : 'Active Subscribers'}</Title>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={subscribers.data?.subscribers ?? []}
          rowKey={(s) => s.id}
          loading={subscribers.isFetching}
          paging={table.paging(subscribers.data?.total_records ?? 0)}
          data-testid="subscribers-table"
        />
      </Card>
    </Stack>
  );
}
