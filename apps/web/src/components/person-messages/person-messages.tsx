import { Card, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { clientSmsMessages, subscriberSmsMessages, type ResponseOf, type SmsMessage } from '@betdesk/contract';
import { DataTable, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { SmsStatusBadge } from '@/components/sms-status-badge.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { get } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

type Person = { clientId: number } | { subscriberId: number };

const columns: DataTableColumn<SmsMessage>[] = [
  { key: 'queued_on', header: 'Queued On', render: (m) => formatDateTime(m.queued_on), width: WIDTH.dateTime, fit: true },
  { key: 'message', header: 'Message', render: (m) => <span title={m.message}>{m.message}</span>, card: 'title' },
  { key: 'status', header: 'Status', render: (m) => <SmsStatusBadge status={m.status} />, width: 130, fit: true },
  { key: 'failure_reason', header: 'Reason', render: (m) => m.failure_reason ?? '', width: 160 },
  { key: 'sent_on', header: 'Sent On', render: (m) => (m.sent_on ? formatDateTime(m.sent_on) : ''), width: WIDTH.dateTime, fit: true },
];

/**
 * The SMS sent to one client or tips subscriber and what became of each (queued, sent, delivered,
 * failed), newest first: GET /api/sms/client-messages or /api/sms/subscriber-messages.
 */
export function PersonMessages({ person }: { person: Person }) {
  const table = useTableState('personMessages', { prefix: 'messages' });
  const [endpoint, query] =
    'clientId' in person
      ? ([clientSmsMessages, { client_id: person.clientId }] as const)
      : ([subscriberSmsMessages, { subscriber_id: person.subscriberId }] as const);
  const messages = useQuery({
    queryKey: queryKeys.sms.person(endpoint.path, query, table.query),
    queryFn: () => get<ResponseOf<typeof clientSmsMessages>>(endpoint.path, { ...query, ...table.query }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Messages
      </Title>
      <DataTable
        columns={columns}
        rows={messages.data?.messages ?? []}
        rowKey={(m) => m.id}
        loading={messages.isFetching}
        emptyText="No SMS sent yet."
        sorting={table.sorting}
        paging={table.pagingOf(messages.data)}
        data-testid="person-messages"
      />
    </Card>
  );
}
