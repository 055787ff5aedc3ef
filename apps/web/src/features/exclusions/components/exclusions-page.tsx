import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Card, Group, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { EXCLUSION_PERIOD_LABELS, EXCLUSION_PERIOD_VALUES, localPhone, type ExclusionPeriodValue, type SelfExclusion } from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { formatCount, formatDateTime } from '@/lib/format.ts';
import { isHttpError } from '@/lib/http.ts';
import { useExclusions, useMarkUnder18, useRecordExclusion } from '../api/exclusions.ts';

const firstError = (error: unknown, field: string) => (isHttpError(error) ? error.errors?.[field]?.[0] : undefined);

const CHANNEL_LABELS: Record<SelfExclusion['channel'], string> = { ussd: 'USSD', portal: 'Portal', sms: 'SMS keyword', staff: 'Staff, on request' };

const columns: DataTableColumn<SelfExclusion>[] = [
  { key: 'phone', header: 'Phone', width: 130, render: (x) => (x.phone ? localPhone(x.phone) : <Badge color="gray">Erased</Badge>) },
  { key: 'period', header: 'Period', width: 100, render: (x) => EXCLUSION_PERIOD_LABELS[x.period] },
  { key: 'channel', header: 'Asked by', width: 140, render: (x) => CHANNEL_LABELS[x.channel] },
  { key: 'starts_at', header: 'From', width: 150, render: (x) => formatDateTime(x.starts_at) },
  { key: 'ends_at', header: 'Until', width: 150, render: (x) => (x.ends_at ? formatDateTime(x.ends_at) : 'For good') },
  { key: 'running', header: 'Status', width: 100, render: (x) => (x.running ? <Badge color="red">Running</Badge> : <Badge color="gray">Ended</Badge>) },
  { key: 'recorded_by', header: 'Recorded by', width: 140, render: (x) => x.recorded_by ?? 'The person' },
  { key: 'note', header: 'Note', render: (x) => x.note ?? '' },
];

/** Staff record a person's own request, with the channel it came through. */
function RecordForm() {
  const record = useRecordExclusion();
  const [form, setForm] = useState({ phone: '', period: '90' as ExclusionPeriodValue, channel: 'staff' as SelfExclusion['channel'], note: '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    record.mutate({ ...form, ...(form.note ? {} : { note: undefined }) }, { onSuccess: () => setForm({ ...form, phone: '', note: '' }) });
  };
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        Record a self-exclusion
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Only on the person's own request. Nobody can end it early, not even an admin.
      </Text>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Phone" placeholder="0712345678" value={form.phone} onChange={(e) => setForm({ ...form, phone: e.currentTarget.value })} error={firstError(record.error, 'phone')} />
          <Select
            label="Period"
            data={EXCLUSION_PERIOD_VALUES.map((v) => ({ value: v, label: EXCLUSION_PERIOD_LABELS[v] }))}
            value={form.period}
            onChange={(v) => v && setForm({ ...form, period: v as ExclusionPeriodValue })}
            allowDeselect={false}
          />
          <Select
            label="They asked by"
            data={Object.entries(CHANNEL_LABELS).map(([value, label]) => ({ value, label }))}
            value={form.channel}
            onChange={(v) => v && setForm({ ...form, channel: v as SelfExclusion['channel'] })}
            allowDeselect={false}
          />
          <Textarea label="Note" value={form.note} onChange={(e) => setForm({ ...form, note: e.currentTarget.value })} error={firstError(record.error, 'note')} />
          {record.data && <Alert color="green">{record.data.info}</Alert>}
          <Group justify="flex-end">
            <Button type="submit" loading={record.isPending}>
              Record self-exclusion
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** Staff mark a person as under 18: no sale can be made to them. */
function Under18Form() {
  const mark = useMarkUnder18();
  const [form, setForm] = useState({ phone: '', note: '' });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        Mark as under 18
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        No sale can then be made to this phone; a payment from it is kept for a refund.
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          mark.mutate(form, { onSuccess: () => setForm({ phone: '', note: '' }) });
        }}
      >
        <Stack>
          <TextInput label="Phone" placeholder="0712345678" value={form.phone} onChange={(e) => setForm({ ...form, phone: e.currentTarget.value })} error={firstError(mark.error, 'phone')} />
          <Textarea label="How the age is known" value={form.note} onChange={(e) => setForm({ ...form, note: e.currentTarget.value })} error={firstError(mark.error, 'note')} />
          {mark.data && <Alert color="green">{mark.data.info}</Alert>}
          <Group justify="flex-end">
            <Button type="submit" loading={mark.isPending}>
              Mark as under 18
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** /exclusions (admins): the self-exclusion register with its counts (decision 059). */
export function ExclusionsPage() {
  const table = useTableState();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const list = useExclusions(table.page, table.perPage, search);
  const counts = list.data?.counts;
  return (
    <Stack>
      <Title order={1} size="h2">
        Self-exclusion
      </Title>
      <FigureBoxes
        figures={[
          { label: 'Excluded now', value: counts ? formatCount(counts.running) : '…', testId: 'excluded-now', hint: 'people, by phone' },
          { label: 'For good', value: counts ? formatCount(counts.for_good) : '…' },
          { label: 'Ended', value: counts ? formatCount(counts.ended) : '…' },
          { label: 'Marked under 18', value: counts ? formatCount(counts.under_18) : '…' },
          { label: 'Payments kept', value: counts ? formatCount(counts.refused_sales) : '…', hint: 'to refund, on Unclaimed payments' },
        ]}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <RecordForm />
        <Under18Form />
      </SimpleGrid>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSearch(typed);
          table.setPage(1);
        }}
      >
        <Group align="flex-end">
          <TextInput label="Search by phone" placeholder="0712345678" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} />
          <Button type="submit" variant="default">
            Search
          </Button>
        </Group>
      </form>
      <DataTable
        columns={columns}
        rows={list.data?.exclusions ?? []}
        rowKey={(x) => x.id}
        loading={list.isLoading}
        paging={table.paging(list.data?.total_records ?? 0)}
        emptyText="Nobody has excluded themselves"
        data-testid="exclusions-register"
      />
    </Stack>
  );
}
