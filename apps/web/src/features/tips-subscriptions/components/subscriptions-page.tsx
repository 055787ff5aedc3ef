import { Anchor, Badge, Card, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { durationLabel, localPhone, type TipsSubscription } from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useSubscriptions, type SubscriptionsScope } from '../api/get-subscriptions.ts';

const columns: DataTableColumn<TipsSubscription>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (s) => (
      <Anchor component={Link} to={`/tips/subscribers/view/${s.subscriber_id}`}>
        {s.name}
      </Anchor>
    ),
  },
  { key: 'phone', header: 'Phone No', render: (s) => localPhone(s.phone) },
  { key: 'done_on', header: 'Done On', render: (s) => formatDateTime(s.done_on) },
  { key: 'duration', header: 'Duration', render: (s) => durationLabel(s.duration) },
  { key: 'expiry_date', header: 'Expiry Date', render: (s) => formatDateTime(s.expiry_date) },
  { key: 'bets', header: 'Bets' },
  {
    key: 'status',
    header: 'Status',
    render: (s) => <Badge color={s.status_id === 1 ? 'green' : 'red'}>{s.status_name}</Badge>,
  },
];

/** /tips/subscriptions/all (admins) and /tips/subscriptions/active. */
export function SubscriptionsPage({ scope }: { scope: SubscriptionsScope }) {
  const table = useTableState();
  const subscriptions = useSubscriptions(scope, table.page, table.perPage);
  return (
    <Stack>
      <Title order={2}>{scope === 'all' ? 'All Subscriptions' : 'Active Subscriptions'}</Title>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={subscriptions.data?.subscriptions ?? []}
          rowKey={(s) => s.id}
          loading={subscriptions.isFetching}
          paging={table.paging(subscriptions.data?.total_records ?? 0)}
          data-testid="subscriptions-table"
        />
      </Card>
    </Stack>
  );
}
