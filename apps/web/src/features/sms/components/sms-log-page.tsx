import { useState } from 'react';
import { Anchor, Button, Card, Chip, Group, Select, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { SMS_STATUSES, type SmsMessage, type SmsStatus } from '@betdesk/contract';
import { DataTable, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { DateRangeNote } from '@/components/data-table/date-range-note.tsx';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { useSmsLog } from '../api/get-sms-log.ts';
import { SmsMessageDrawer } from './sms-message-drawer.tsx';
import { SmsStatusBadge, statusLabels } from '@/components/sms-status-badge.tsx';
import { SmsGatewayAlert } from '@/components/sms-gateway-alert.tsx';
import { ResendByCause } from './resend-by-cause.tsx';
import { SmsProvidersCard } from './sms-providers-card.tsx';
import { providerLabel } from '@/components/sms-provider-label.ts';
import { useSmsProviders } from '../api/get-sms-providers.ts';

function recipient(m: SmsMessage) {
  if (!m.name) return '';
  const to = m.client_id ? `/clients/${m.client_id}` : `/tips/subscribers/view/${m.subscriber_id}`;
  return (
    <Anchor component={Link} to={to}>
      {m.name}
    </Anchor>
  );
}

const ALL = 'all';

/** /sms (admins): every message the business sent or will send, and what became of it. */
export function SmsLogPage() {
  const table = useTableState('smsLog');
  const [status, setStatus] = useState<SmsStatus | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const [provider, setProvider] = useState<string | null>(null);
  const log = useSmsLog({ status, provider, query: table.query });
  const providers = useSmsProviders().data?.providers ?? [];
  const counts = log.data?.status_counts;
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : null;

  const columns: DataTableColumn<SmsMessage>[] = [
    { key: 'queued_on', header: 'Queued On', render: (m) => formatDateTime(m.queued_on), width: WIDTH.dateTime, fit: true },
    { key: 'phone', header: 'Phone No', width: WIDTH.phone, fit: true },
    { key: 'name', header: 'Name', render: recipient, width: 180, card: 'title' },
    {
      key: 'message',
      header: 'Message',
      render: (m) => <span title={m.message}>{m.message}</span>,
    },
    { key: 'parts', header: 'Parts', align: 'right', width: 60, fit: true },
    {
      key: 'status',
      header: 'Status',
      width: 180,
      render: (m) =>
        m.held_until ? (
          <span title={`Held until ${formatDateTime(m.held_until)}`}>
            <SmsStatusBadge status={m.status} />{' '}
            <Text span size="xs" c="dimmed">
              held
            </Text>
          </span>
        ) : m.failure_cause && (m.status === 'failed' || m.status === 'queued') ? (
          // One line per row (the table's rows have a fixed height): the cause beside the badge, whole in the title.
          <span title={m.failure_cause}>
            <SmsStatusBadge status={m.status} />{' '}
            <Text span size="xs" c={m.status === 'failed' ? 'red' : 'dimmed'} data-testid={`sms-cause-${m.id}`}>
              {m.failure_cause}
            </Text>
          </span>
        ) : (
          <SmsStatusBadge status={m.status} />
        ),
    },
    { key: 'provider', header: 'Provider', render: (m) => (m.provider ? providerLabel(m.provider) : ''), width: 130, fit: true },
    { key: 'cost', header: 'Cost', align: 'right', render: (m) => (m.cost === null ? '' : formatMoney(m.cost)), width: 100, fit: true },
    {
      key: 'view',
      header: '',
      width: 85,
      render: (m) => (
        <Button size="xs" variant="light" onClick={() => setOpenId(m.id)} data-testid={`sms-view-${m.id}`}>
          View
        </Button>
      ),
    },
  ];

  return (
    <Stack>
      <Title order={1} size="h2">SMS Log</Title>
      <SmsGatewayAlert enabled backlog />
      <SmsProvidersCard />
      <DateRangeNote from={table.from} to={table.to} />
      <Card withBorder>
        <ResendByCause />
        <Chip.Group
          value={status ?? ALL}
          onChange={(value) => {
            setStatus(value === ALL ? null : (value as SmsStatus));
            table.setPage(1);
          }}
        >
          <Group gap="xs" mb="md" data-testid="sms-status-filter">
            <Chip value={ALL}>All{total !== null ? ` (${total})` : ''}</Chip>
            {SMS_STATUSES.map((s) => (
              <Chip key={s} value={s}>
                {statusLabels[s]}
                {counts ? ` (${counts[s]})` : ''}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
        {providers.length > 1 && (
          <Select
            label="Provider"
            placeholder="Every provider"
            clearable
            w={240}
            mb="md"
            value={provider}
            onChange={(value) => {
              setProvider(value);
              table.setPage(1);
            }}
            data={providers.map((p) => ({ value: p.provider, label: providerLabel(p.provider) }))}
            data-testid="sms-provider-filter"
          />
        )}
        <DataTable
          columns={columns}
          rows={log.data?.messages ?? []}
          rowKey={(m) => m.id}
          loading={log.isFetching}
          emptyText="No messages."
          {...table.listProps('Search by phone number', log.data)}
          dateRange={table.dateRange}
          data-testid="sms-log-table"
        />
      </Card>
      <SmsMessageDrawer messageId={openId} onClose={() => setOpenId(null)} onOpen={setOpenId} />
    </Stack>
  );
}
