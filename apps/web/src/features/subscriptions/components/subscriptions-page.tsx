import { Anchor, Badge, Card, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone, RECENT_SUBSCRIPTION_DAYS, type Bet4meSubscription } from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format.ts';
import { useSubscriptions } from '../api/get-subscriptions.ts';

export const subscriptionColumns: DataTableColumn<Bet4meSubscription>[] = [
  {
    key: 'name',
    header: 'Client',
    render: (s) => (
      <Anchor component={Link} to={`/clients/${s.client_id}`}>
        {s.name}
      </Anchor>
    ),
  },
  { key: 'phone', header: 'Phone', render: (s) => localPhone(s.phone) },
  { key: 'amount', header: 'Amount', render: (s) => formatMoney(s.amount), align: 'right' },
  { key: 'duration', header: 'Duration', render: (s) => `${s.duration} days` },
  { key: 'done_on', header: 'Done on', render: (s) => formatDateTime(s.done_on) },
  { key: 'expiry_date', header: 'Expiry date', render: (s) => formatDate(s.expiry_date) },
  {
    key: 'status',
    header: 'Status',
    render: (s) => (
      <Badge color={s.status_id === 1 ? 'green' : 'red'} data-testid="subscription-status">
        {s.status_name}
      </Badge>
    ),
  },
];

/** /subscriptions (taken in the last 30 days) and /subscriptions/all, with the income figures. */
export function SubscriptionsPage({ which }: { which: 'recent' | 'all' }) {
  const table = useTableState();
  const subscriptions = useSubscriptions(which, table.page, table.perPage);
  const data = subscriptions.data;
  return (
    <Stack>
      <Title order={2}>{which === 'recent' ? `Subscriptions of the last ${RECENT_SUBSCRIPTION_DAYS} days` : 'All Subscriptions'}</Title>
      <FigureBoxes
        figures={[
          { label: 'Subscription income today', value: formatMoney(data?.total_income_today ?? 0) },
          { label: 'Subscription income, all time', value: formatMoney(data?.total_income ?? 0) },
          { label: 'Subscriptions listed', value: (data?.total_records ?? 0).toLocaleString('en-KE') },
        ]}
      />
      <Card withBorder>
        <DataTable
          columns={subscriptionColumns}
          rows={data?.subscriptions ?? []}
          rowKey={(s) => s.id}
          loading={subscriptions.isFetching}
          exportCsv={{
            path: which === 'recent' ? '/api/subscriptions/export' : '/api/subscriptions/all/export',
            filename: `${which}-subscriptions.csv`,
          }}
          paging={table.paging(data?.total_records ?? 0)}
          data-testid="subscriptions-table"
        />
      </Card>
    </Stack>
  );
}
