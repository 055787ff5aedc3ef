import { Anchor, Card, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone, type TipsSubscription } from '@betdesk/contract';
import { DataTable, StatusBadge, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { DateRangeNote } from '@/components/data-table/date-range-note.tsx';
import { TaxInvoiceLink } from '@/components/tax-invoice-link.tsx';
import { formatDateTime, formatDuration } from '@/lib/format.ts';
import { useSubscriptions, type SubscriptionsScope } from '../api/get-subscriptions.ts';

const columns: DataTableColumn<TipsSubscription>[] = [
  {
    key: 'name',
    header: 'Name',
    card: 'title',
    render: (s) => (
      <Anchor component={Link} to={`/tips/subscribers/view/${s.subscriber_id}`}>
        {s.name}
      </Anchor>
    ),
  },
  { key: 'phone', header: 'Phone No', render: (s) => localPhone(s.phone), width: WIDTH.phone, fit: true },
  { key: 'done_on', header: 'Done On', render: (s) => formatDateTime(s.done_on), width: WIDTH.dateTime, fit: true },
  { key: 'duration', header: 'Duration', render: (s) => formatDuration(s.duration), width: WIDTH.duration, fit: true },
  { key: 'expiry_date', header: 'Expiry Date', render: (s) => formatDateTime(s.expiry_date), width: WIDTH.dateTime, fit: true },
  { key: 'bets', header: 'Bets' },
  { key: 'status', header: 'Status', render: (s) => <StatusBadge status={s.status_name} />, width: WIDTH.status, fit: true },
  { key: 'invoice', header: 'Tax invoice', render: (s) => <TaxInvoiceLink invoice={s.invoice} testId={`subscription-invoice-${s.id}`} />, width: WIDTH.ref, fit: true },
];

/** /tips/subscriptions/all (admins) and /tips/subscriptions/active. */
export function SubscriptionsPage({ scope }: { scope: SubscriptionsScope }) {
  const table = useTableState(scope === 'all' ? 'tipsSubscriptions' : 'activeTipsSubscriptions');
  const subscriptions = useSubscriptions(scope, table.query);
  return (
    <Stack>
      <Title order={1} size="h2">{scope === 'all' ? 'All Subscriptions' : 'Active Subscriptions'}</Title>
      <DateRangeNote from={table.from} to={table.to} />
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={subscriptions.data?.subscriptions ?? []}
          rowKey={(s) => s.id}
          loading={subscriptions.isFetching}
          {...table.listProps('Name or phone, then Enter', subscriptions.data)}
          dateRange={table.dateRange}
          data-testid="subscriptions-table"
        />
      </Card>
    </Stack>
  );
}
