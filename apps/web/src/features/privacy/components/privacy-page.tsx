import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Card, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Switch, Table, Tabs, Text, TextInput, Textarea, Title } from '@mantine/core';
import {
  normaliseKenyanPhone,
  PRIVACY_REQUEST_KIND_LABELS,
  type DataBreach,
  type PrivacyRequest,
  PRIVACY_SUBJECT_SECTIONS,
  type PrivacySubject,
} from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatCount, formatDateTime } from '@/lib/format.ts';
import { isHttpError } from '@/lib/http.ts';
import { useBreaches, useNotifyBreach, useRecordBreach } from '../api/breaches.ts';
import { useConsent, useRecordConsent } from '../api/consent.ts';
import { useErasePerson } from '../api/erase-person.ts';
import { useAddPrivacyRequest, useCompletePrivacyRequest, usePrivacyRequests } from '../api/requests.ts';
import { downloadSubject, useSubject } from '../api/get-subject.ts';

const fieldErrors = (error: unknown) => (isHttpError(error) ? (error.errors ?? {}) : {});
const firstError = (error: unknown, field: string) => fieldErrors(error)[field]?.[0];

/** The export's sections, labelled once in the contract. */
const SECTIONS: readonly { key: keyof PrivacySubject; label: string }[] = PRIVACY_SUBJECT_SECTIONS;

/** Look up a phone: what is held, its consent, download it for the person, or erase them. */
function PersonPanel() {
  const [typed, setTyped] = useState('');
  const [phone, setPhone] = useState<string | null>(null);
  const [typedError, setTypedError] = useState<string | null>(null);
  const subject = useSubject(phone);
  const consent = useConsent(phone);
  const recordConsent = useRecordConsent();
  const erase = useErasePerson();
  const [consentNote, setConsentNote] = useState('');
  const [consentGiven, setConsentGiven] = useState(true);
  const [erasing, setErasing] = useState(false);
  const [reason, setReason] = useState('');

  const look = (event: FormEvent) => {
    event.preventDefault();
    const normalised = normaliseKenyanPhone(typed);
    setTypedError(normalised ? null : 'Enter a Kenyan mobile number like 0712345678');
    setPhone(normalised);
  };

  return (
    <Stack>
      <form onSubmit={look}>
        <Group align="flex-end">
          <TextInput label="Phone" placeholder="0712345678" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} error={typedError} />
          <Button type="submit">Show what we hold</Button>
        </Group>
      </form>
      <Text size="sm" c="dimmed">
        Ask for nothing beyond the phone the request comes from: confirm it is theirs by a code sent to it or a call back. Each look is
        recorded in the audit log.
      </Text>
      {phone && subject.data && (
        <Card withBorder data-testid="privacy-subject">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4">{phone}</Title>
            {subject.data.erased && <Badge color="gray">Erased</Badge>}
          </Group>
          <Table striped>
            <Table.Tbody>
              {SECTIONS.map((s) => (
                <Table.Tr key={s.key}>
                  <Table.Td>{s.label}</Table.Td>
                  <Table.Td ta="right">{formatCount((subject.data[s.key] as unknown[]).length)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group mt="md">
            <Button variant="default" onClick={() => void downloadSubject(phone)}>
              Download as JSON
            </Button>
            <Button color="red" variant="light" onClick={() => setErasing(true)} disabled={subject.data.erased && subject.data.subscribers.length === 0 && subject.data.clients.length === 0}>
              Erase this person
            </Button>
          </Group>
        </Card>
      )}
      {phone && consent.data && (
        <Card withBorder data-testid="privacy-consent">
          <Title order={2} size="h4" mb="xs">
            Marketing consent
          </Title>
          <Text size="sm">
            {consent.data.given
              ? `Given ${consent.data.since ? formatDateTime(consent.data.since) : ''} by ${consent.data.channel}: “${consent.data.wording}”`
              : 'Not given: no offers or broadcasts go to this phone.'}
          </Text>
          <Group align="flex-end" mt="sm">
            <Switch label={consentGiven ? 'They agree to offers' : 'They withdraw'} checked={consentGiven} onChange={(e) => setConsentGiven(e.currentTarget.checked)} />
            <TextInput
              label="How they said it"
              placeholder="e.g. on a call on 25 Nov"
              value={consentNote}
              onChange={(e) => setConsentNote(e.currentTarget.value)}
              error={firstError(recordConsent.error, 'note')}
              style={{ flex: 1 }}
            />
            <Button
              loading={recordConsent.isPending}
              onClick={() => recordConsent.mutate({ phone, given: consentGiven, note: consentNote }, { onSuccess: () => setConsentNote('') })}
            >
              Record
            </Button>
          </Group>
        </Card>
      )}
      <Modal opened={erasing && phone !== null} onClose={() => setErasing(false)} title="Erase this person?">
        <Stack>
          <Alert color="red">
            Names, phones, emails, message texts and platform passwords of {phone} are removed for good. Payments stay, without the
            person, so every total and report is unchanged. This cannot be undone.
          </Alert>
          <Textarea label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} error={firstError(erase.error, 'reason')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setErasing(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={erase.isPending}
              onClick={() => erase.mutate({ phone: phone!, reason }, { onSuccess: () => { setErasing(false); setReason(''); } })}
            >
              Erase
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

const requestColumns = (markDone: (r: PrivacyRequest) => void): DataTableColumn<PrivacyRequest>[] => [
  { key: 'received_at', header: 'Received', render: (r) => formatDateTime(r.received_at), width: 150 },
  { key: 'kind', header: 'Asks to', render: (r) => PRIVACY_REQUEST_KIND_LABELS[r.kind], width: 150 },
  { key: 'phone', header: 'Phone', width: 140 },
  { key: 'note', header: 'Note', render: (r) => r.note ?? '' },
  {
    key: 'due_at',
    header: 'Due',
    width: 170,
    render: (r) => (r.overdue ? <Badge color="red">Overdue: {formatDateTime(r.due_at)}</Badge> : formatDateTime(r.due_at)),
  },
  {
    key: 'done',
    header: 'Done',
    width: 200,
    render: (r) =>
      r.done_at ? `${formatDateTime(r.done_at)}: ${r.outcome ?? ''}` : (
        <Button size="xs" variant="light" onClick={() => markDone(r)}>
          Mark done
        </Button>
      ),
  },
];

function RequestsPanel() {
  const table = useTableState();
  const list = usePrivacyRequests(table.page, table.perPage);
  const add = useAddPrivacyRequest();
  const complete = useCompletePrivacyRequest();
  const [form, setForm] = useState({ kind: 'access', phone: '', note: '' });
  const [closing, setClosing] = useState<PrivacyRequest | null>(null);
  const [outcome, setOutcome] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { kind: form.kind as PrivacyRequest['kind'], phone: form.phone, ...(form.note ? { note: form.note } : {}) },
      { onSuccess: () => setForm({ kind: 'access', phone: '', note: '' }) },
    );
  };
  return (
    <Stack>
      <form onSubmit={submit}>
        <SimpleGrid cols={{ base: 1, sm: 4 }} style={{ alignItems: 'end' }}>
          <Select
            label="The person asks to"
            data={Object.entries(PRIVACY_REQUEST_KIND_LABELS).map(([value, label]) => ({ value, label }))}
            value={form.kind}
            onChange={(kind) => setForm({ ...form, kind: kind ?? 'access' })}
            allowDeselect={false}
          />
          <TextInput label="Phone" value={form.phone} onChange={(e) => setForm({ ...form, phone: e.currentTarget.value })} error={firstError(add.error, 'phone')} />
          <TextInput label="Note" value={form.note} onChange={(e) => setForm({ ...form, note: e.currentTarget.value })} error={firstError(add.error, 'note')} />
          <Button type="submit" loading={add.isPending}>
            Record request
          </Button>
        </SimpleGrid>
      </form>
      <DataTable
        columns={requestColumns(setClosing)}
        rows={list.data?.requests ?? []}
        rowKey={(r) => r.id}
        loading={list.isLoading}
        paging={table.paging(list.data?.total_records ?? 0)}
        emptyText="No requests yet"
        data-testid="privacy-requests"
      />
      <Modal opened={closing !== null} onClose={() => setClosing(null)} title="Mark the request done">
        <Stack>
          <Textarea label="What was done" value={outcome} onChange={(e) => setOutcome(e.currentTarget.value)} error={firstError(complete.error, 'outcome')} />
          <Group justify="flex-end">
            <Button
              loading={complete.isPending}
              onClick={() => complete.mutate({ id: closing!.id, outcome }, { onSuccess: () => { setClosing(null); setOutcome(''); } })}
            >
              Mark done
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

const breachColumns = (notify: (b: DataBreach) => void): DataTableColumn<DataBreach>[] => [
  { key: 'discovered_at', header: 'Discovered', render: (b) => formatDateTime(b.discovered_at), width: 150 },
  { key: 'description', header: 'What happened' },
  { key: 'people_affected', header: 'People', align: 'right', width: 80, render: (b) => formatCount(b.people_affected) },
  { key: 'data_concerned', header: 'Data', width: 180 },
  {
    key: 'notified_at',
    header: 'Data Commissioner',
    width: 230,
    render: (b) =>
      b.notified_at ? `Told ${formatDateTime(b.notified_at)} (${b.notification_ref ?? ''})` : (
        <Group gap="xs">
          <Badge color={new Date(b.notify_by).getTime() < Date.now() ? 'red' : 'orange'}>By {formatDateTime(b.notify_by)}</Badge>
          <Button size="xs" variant="light" onClick={() => notify(b)}>
            Mark notified
          </Button>
        </Group>
      ),
  },
];

function BreachesPanel() {
  const table = useTableState();
  const list = useBreaches(table.page, table.perPage);
  const record = useRecordBreach();
  const notify = useNotifyBreach();
  const [form, setForm] = useState({ discovered_at: '', description: '', people_affected: 0 as number | string, data_concerned: '', measures: '' });
  const [notifying, setNotifying] = useState<DataBreach | null>(null);
  const [reference, setReference] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    record.mutate(
      {
        discovered_at: form.discovered_at ? new Date(form.discovered_at).toISOString() : '',
        description: form.description,
        people_affected: Number(form.people_affected),
        data_concerned: form.data_concerned,
        ...(form.measures ? { measures: form.measures } : {}),
      },
      { onSuccess: () => setForm({ discovered_at: '', description: '', people_affected: 0, data_concerned: '', measures: '' }) },
    );
  };
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        A breach of personal data is reported to the Office of the Data Protection Commissioner within 72 hours of its discovery
        (Data Protection Act 2019, section 43). The dashboard counts the hours until it is marked notified.
      </Text>
      <form onSubmit={submit}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput type="datetime-local" label="Discovered" value={form.discovered_at} onChange={(e) => setForm({ ...form, discovered_at: e.currentTarget.value })} error={firstError(record.error, 'discovered_at')} />
          <NumberInput label="People affected" min={0} value={form.people_affected} onChange={(v) => setForm({ ...form, people_affected: v })} error={firstError(record.error, 'people_affected')} />
          <Textarea label="What happened" value={form.description} onChange={(e) => setForm({ ...form, description: e.currentTarget.value })} error={firstError(record.error, 'description')} />
          <Textarea label="Data concerned" value={form.data_concerned} onChange={(e) => setForm({ ...form, data_concerned: e.currentTarget.value })} error={firstError(record.error, 'data_concerned')} />
          <Textarea label="Measures taken" value={form.measures} onChange={(e) => setForm({ ...form, measures: e.currentTarget.value })} />
          <Group align="flex-end">
            <Button type="submit" loading={record.isPending}>
              Record breach
            </Button>
          </Group>
        </SimpleGrid>
      </form>
      <DataTable
        columns={breachColumns(setNotifying)}
        rows={list.data?.breaches ?? []}
        rowKey={(b) => b.id}
        loading={list.isLoading}
        paging={table.paging(list.data?.total_records ?? 0)}
        emptyText="No breach recorded"
        data-testid="privacy-breaches"
      />
      <Modal opened={notifying !== null} onClose={() => setNotifying(null)} title="The Data Commissioner was told">
        <Stack>
          <TextInput label="Their reference" value={reference} onChange={(e) => setReference(e.currentTarget.value)} error={firstError(notify.error, 'notification_ref')} />
          <Group justify="flex-end">
            <Button
              loading={notify.isPending}
              onClick={() =>
                notify.mutate(
                  { id: notifying!.id, notified_at: new Date().toISOString(), notification_ref: reference },
                  { onSuccess: () => { setNotifying(null); setReference(''); } },
                )
              }
            >
              Mark notified now
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** /privacy (admins): Kenya's Data Protection Act in one place (decision 025). */
export function PrivacyPage() {
  return (
    <Stack>
      <Title order={1} size="h2">Privacy</Title>
      <Tabs defaultValue="person" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="person">A person's data</Tabs.Tab>
          <Tabs.Tab value="requests">Requests</Tabs.Tab>
          <Tabs.Tab value="breaches">Breach register</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="person" pt="md">
          <PersonPanel />
        </Tabs.Panel>
        <Tabs.Panel value="requests" pt="md">
          <RequestsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="breaches" pt="md">
          <BreachesPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
