import { Button, Card, Text, Title } from '@mantine/core';
import type { StandingOrderRow } from '@betdesk/contract';
import { DataTable, StatusBadge, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { showToast } from '@/lib/feedback.tsx';
import { formatDate, formatMoney } from '@/lib/format.ts';
import { useAutoRenewals, useStopAutoRenewal } from '../api/auto-renewals.ts';

const LIVE = new Set(['requested', 'pending', 'active']);

/**
 * The subscriber's automatic renewals (M-Pesa Ratiba standing orders): status, next date, amount,
 * until when it runs, and Stop for a live one. Nothing at all while Ratiba is off (the API answers 404).
 */
export function AutoRenewalsCard({ subscriberId }: { subscriberId: number }) {
  const { data } = useAutoRenewals(subscriberId);
  const stop = useStopAutoRenewal(subscriberId);
  if (!data) return null;
  const columns: DataTableColumn<StandingOrderRow>[] = [
    { key: 'package', header: 'Package', card: 'title' },
    { key: 'status', header: 'Status', render: (o) => <StatusBadge status={o.status} />, width: WIDTH.status, fit: true },
    { key: 'next_date', header: 'Next date', render: (o) => (LIVE.has(o.status) ? formatDate(o.next_date) : ''), width: WIDTH.date, fit: true },
    { key: 'amount', header: 'Amount', render: (o) => `${formatMoney(o.amount)} ${o.frequency}`, fit: true },
    { key: 'end_date', header: 'Until', render: (o) => formatDate(o.end_date), width: WIDTH.date, fit: true },
    { key: 'missed_date', header: 'Last missed', render: (o) => (o.missed_date ? formatDate(o.missed_date) : ''), width: WIDTH.date, fit: true },
    {
      key: 'actions',
      header: 'Actions',
      render: (o) =>
        LIVE.has(o.status) ? (
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={stop.isPending}
            data-testid={`stop-auto-renewal-${o.id}`}
            onClick={() => stop.mutate(o.id, { onSuccess: (r) => r.info && showToast('success', r.info) })}
          >
            Stop
          </Button>
        ) : null,
      fit: true,
    },
  ];
  return (
    <Card withBorder data-testid="subscriber-auto-renewals">
      <Title order={2} size="h4" mb="sm">
        Automatic renewal (M-Pesa Ratiba)
      </Title>
      {data.standing_orders.length === 0 ? (
        <Text c="dimmed">Not turned on.</Text>
      ) : (
        <DataTable columns={columns} rows={data.standing_orders} rowKey={(o) => o.id} label="Automatic renewals" />
      )}
      <Text size="xs" c="dimmed" mt="xs">
        Stopping here tells the subscriber by SMS; M-Pesa offers no way to cancel the standing order itself, so they also cancel it in the M-Pesa app or *334#.
      </Text>
    </Card>
  );
}
