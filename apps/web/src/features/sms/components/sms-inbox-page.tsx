import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone, type SmsInboundMessage } from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useSmsInbox } from '../api/get-sms-inbox.ts';

function sender(m: SmsInboundMessage) {
  if (!m.name) return '';
  const to = m.subscriber_id ? `/tips/subscribers/view/${m.subscriber_id}` : `/clients/${m.client_id}`;
  return (
    <Anchor component={Link} to={to}>
      {m.name}
    </Anchor>
  );
}

const columns: DataTableColumn<SmsInboundMessage>[] = [
  { key: 'received_on', header: 'Received On', render: (m) => formatDateTime(m.received_on), width: 150, fit: true },
  { key: 'phone', header: 'Phone No', render: (m) => (/^254\d{9}$/.test(m.phone) ? localPhone(m.phone) : m.phone), width: 120, fit: true },
  { key: 'name', header: 'Name', render: sender, width: 170 },
  {
    key: 'text',
    header: 'Message',
    render: (m) => (
      <Text size="sm" lineClamp={2} title={m.text}>
        {m.text}
      </Text>
    ),
  },
  { key: 'keyword', header: 'Keyword', width: 110 },
  { key: 'action', header: 'What was done', width: 260 },
];

/** /sms/inbox (admins): what people texted us, the keyword understood and what the system did. */
export function SmsInboxPage() {
  const table = useTableState();
  const inbox = useSmsInbox({ search: table.search, page: table.page, perPage: table.perPage });
  return (
    <Stack>
      <Title order={1} size="h2">SMS Inbox</Title>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={inbox.data?.messages ?? []}
          rowKey={(m) => m.id}
          loading={inbox.isFetching}
          emptyText="No messages received."
          search={table.searchBox('Search by phone number')}
          paging={table.paging(inbox.data?.total_records ?? 0)}
          data-testid="sms-inbox-table"
        />
      </Card>
    </Stack>
  );
}
