import { Card, Stack, Title } from '@mantine/core';
import { RECENT_SUBSCRIPTION_DAYS, type Bet4meSubscription } from '@betdesk/contract';
import { clientColumns } from '@/components/client-columns.tsx';
import { DataTable, StatusBadge, totalOf, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { DateRangeNote } from '@/components/data-table/date-range-note.tsx';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { TaxInvoiceLink } from '@/components/tax-invoice-link.tsx';
import { formatDate, formatDateTime, formatDuration, formatMoney } from '@/lib/format.ts';
import { useSubscriptions } from '../api/get-subscriptions.ts';

export const subscriptionColumns: DataTableColumn<Bet4meSubscription>[] = [
  ...clientColumns<Bet4meSubscription>(),
  { key: 'amount', header: 'Amount', render: (s) => formatMoney(s.amount), align: 'right', width: WIDTH.money, fit: true },
  { key: 'duration', header: 'Duration', render: (s) => formatDuration(s.duration), width: WIDTH.duration, fit: true },
  { key: 'done_on', header: 'Done on', render: (s) => formatDateTime(s.done_on), width: WIDTH.dateTime, fit: true },
  { key: 'expiry_date', header: 'Expiry date', render: (s) => formatDate(s.expiry_date), width: WIDTH.date, fit: true },
  {
    key: 'status',
    header: 'Status',
    width: WIDTH.status, fit: true,
    render: (s) => <StatusBadge status={s.status_name} data-testid="subscription-status" />,
  },
  { key: 'invoice', header: 'Tax invoice', render: (s) => <TaxInvoiceLink invoice={s.invoice} testId={`subscription-invoice-${s.id}`} />, width: WIDTH.ref, fit: true },
];

/**
 * The title and the income box's label say what the rows and the figure cover: chosen days replace
 * the recent window (the server does the same), and income is all time only without days.
 */
export function subscriptionLabels(which: 'recent' | 'all', ranged: boolean): { title: string; income: string } {
  if (ranged) return { title: 'Subscriptions of the chosen days', income: 'Bet4Me subscriptions sold in these days' };
  return {
    title: which === 'recent' ? `Subscriptions of the last ${RECENT_SUBSCRIPTION_DAYS} days` : 'All Subscriptions',
    income: 'Bet4Me subscriptions sold, all time',
  };
}

/** /subscriptions (taken in the last 30 days) and /subscriptions/all, with the income figures. */
export function SubscriptionsPage({ which }: { which: 'recent' | 'all' }) {
  const table = useTableState(which === 'recent' ? 'subscriptions' : 'allSubscriptions');
  const subscriptions = useSubscriptions(which, table.query);
  const data = subscriptions.data;
  const labels = subscriptionLabels(which, Boolean(table.from || table.to));
  return (
    <Stack>
      <Title order={1} size="h2">{labels.title}</Title>
      <DateRangeNote from={table.from} to={table.to} />
      <FigureBoxes
        figures={[
          {
            label: 'Bet4Me subscriptions sold today',
            value: formatMoney(data?.total_income_today ?? 0),
            hint: 'Subscriptions started today, however paid',
          },
          {
            label: labels.income,
            value: formatMoney(data?.total_income ?? 0),
            hint: 'Money received by M-Pesa is on the Dashboard',
          },
          { label: 'Subscriptions listed', value: totalOf(data) },
        ]}
      />
      <Card withBorder>
        <DataTable
          columns={subscriptionColumns}
          rows={data?.subscriptions ?? []}
          rowKey={(s) => s.id}
          loading={subscriptions.isFetching}
          sorting={table.sorting}
          dateRange={table.dateRange}
          exportCsv={{
            path: which === 'recent' ? '/api/subscriptions/export' : '/api/subscriptions/all/export',
            query: table.filters,
            filename: `${which}-subscriptions.csv`,
          }}
          paging={table.pagingOf(data)}
          data-testid="subscriptions-table"
        />
      </Card>
    </Stack>
  );
}
