import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Badge, Button, Card, Checkbox, Group, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { DEFAULT_PAGE_SIZE, nairobiDayOf, type PageSize, type TaxInvoice, type Transmission } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { isHttpError } from '@/lib/http.ts';
import { useInitialiseTaxDevice, useSaveTaxSettings, useTaxSettings } from '../api/get-tax-settings.ts';
import { useResendTaxInvoice, useTaxInvoices } from '../api/get-tax-invoices.ts';
import { useTaxSummary } from '../api/get-tax-summary.ts';
import { ClosedMonthBanner } from '@/components/closed-month-banner.tsx';
import { BooksPeriodsCard } from './books-periods-card.tsx';
import { useTaxTransmissions } from '../api/get-tax-transmissions.ts';
import { useRetryTaxInvoice } from '../api/retry-tax-invoice.ts';
import { downloadInvoiceDocument } from '@/components/tax-identity/api.ts';
import { SendInvoiceLinkButton } from '@/components/tax-identity/send-invoice-link-button.tsx';
import { downloadVatReturn } from '../api/download-vat-return.ts';

const STATUS_COLORS: Record<TaxInvoice['status'], string> = { awaiting: 'yellow', queued: 'blue', sent: 'teal', rejected: 'red' };

/** The eTIMS device: PIN, branch, serial, VAT registration; then KRA's initialisation. */
function DeviceSettings() {
  const settings = useTaxSettings();
  const save = useSaveTaxSettings();
  const initialise = useInitialiseTaxDevice();
  const [form, setForm] = useState({ tin: '', branch_id: '00', device_serial: '', vat_registered: false, base_url: '' });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const data = settings.data;
  useEffect(() => {
    if (data) {
      setForm({ tin: data.tin ?? '', branch_id: data.branch_id, device_serial: data.device_serial ?? '', vat_registered: data.vat_registered, base_url: data.base_url });
    }
  }, [data]);
  const submit = () => {
    setErrors({});
    save.mutate(
      { ...form, base_url: form.base_url || null },
      { onError: (error) => setErrors(isHttpError(error) ? (error.errors ?? {}) : {}) },
    );
  };
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3">eTIMS device</Title>
          {data && (
            <Badge color={data.invoicing_on ? 'teal' : 'yellow'} data-testid="invoicing-state">
              {data.invoicing_on ? 'Invoicing on' : 'Invoicing off'}
            </Badge>
          )}
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="KRA PIN" value={form.tin} onChange={(e) => setForm({ ...form, tin: e.currentTarget.value })} error={errors.tin?.[0]} data-testid="tax-tin" />
          <TextInput label="Branch id" value={form.branch_id} onChange={(e) => setForm({ ...form, branch_id: e.currentTarget.value })} error={errors.branch_id?.[0]} />
          <TextInput label="Device serial" value={form.device_serial} onChange={(e) => setForm({ ...form, device_serial: e.currentTarget.value })} error={errors.device_serial?.[0]} data-testid="tax-serial" />
          <TextInput label="OSCU address" value={form.base_url} onChange={(e) => setForm({ ...form, base_url: e.currentTarget.value })} error={errors.base_url?.[0]} />
        </SimpleGrid>
        <Checkbox label="Registered for VAT (prices include 16 % VAT, tax type B)" checked={form.vat_registered} onChange={(e) => setForm({ ...form, vat_registered: e.currentTarget.checked })} />
        <Group>
          <Button onClick={submit} loading={save.isPending} data-testid="tax-save">
            Save
          </Button>
          <Button variant="light" onClick={() => initialise.mutate()} loading={initialise.isPending} disabled={!data?.tin} data-testid="tax-initialise">
            Initialise device
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function MonthSummary() {
  const [month, setMonth] = useState(nairobiDayOf(new Date()).slice(0, 7));
  const summary = useTaxSummary(month);
  const rows = summary.data?.rows ?? [];
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3">Monthly summary</Title>
          <Group gap="xs">
            <TextInput type="month" aria-label="Month" value={month} onChange={(e) => e.currentTarget.value && setMonth(e.currentTarget.value)} data-testid="tax-month" />
            <Button variant="light" onClick={() => downloadVatReturn(month, 'csv').catch(() => {})} data-testid="vat-return-csv">
              VAT return (CSV)
            </Button>
            <Button variant="light" onClick={() => downloadVatReturn(month, 'xlsx').catch(() => {})} data-testid="vat-return-xlsx">
              VAT return (Excel)
            </Button>
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          The VAT return lists the month&apos;s sales schedule in KRA&apos;s VAT3 columns, one sheet per tax type in the Excel file. A
          sale belongs to the month its M-Pesa payment was made, even when it was confirmed or invoiced later.
        </Text>
        <ClosedMonthBanner closed={summary.data?.closed} testId="tax-month-closed" />
        <Table.ScrollContainer minWidth={520} type="native" tabIndex={0} role="region" aria-label="The month by tax type">
          <Table data-testid="tax-summary">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Tax type</Table.Th>
                <Table.Th ta="right">Sales</Table.Th>
                <Table.Th ta="right">Tax</Table.Th>
                <Table.Th ta="right">Credit notes</Table.Th>
                <Table.Th ta="right">Net</Table.Th>
                <Table.Th ta="right">Net tax</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={6}>No invoices this month.</Table.Td>
                </Table.Tr>
              )}
              {rows.map((r) => (
                <Table.Tr key={r.tax_type}>
                  <Table.Td>{r.tax_type}</Table.Td>
                  <Table.Td ta="right">{formatMoney(r.sales)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(r.tax)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(r.credit_notes)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(r.net)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(r.net_tax)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Card>
  );
}

const TRANSMISSION_COLORS: Record<Transmission['status'], string> = { queued: 'blue', retrying: 'orange', rejected: 'red' };

/** Documents KRA has not accepted yet (decision 068): their age, KRA's reason, and a retry. */
function Transmissions() {
  const [status, setStatus] = useState<Transmission['status'] | undefined>(undefined);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<PageSize>(DEFAULT_PAGE_SIZE);
  const list = useTaxTransmissions({ ...(status ? { status } : {}), page, perPage });
  const retry = useRetryTaxInvoice();
  const data = list.data;
  const columns: DataTableColumn<Transmission>[] = [
    { key: 'number', header: 'Number', width: 110, card: 'title', render: (x) => (x.kind === 'invoice' ? `${x.number}` : `CN ${x.number}`) },
    { key: 'time', header: 'Issued', width: 160, render: (x) => formatDateTime(x.time) },
    { key: 'age', header: 'Age', width: 90, align: 'right', render: (x) => (x.age_hours < 1 ? `${Math.round(x.age_hours * 60)} min` : `${Math.floor(x.age_hours)} h`) },
    { key: 'amount', header: 'Amount', width: 110, align: 'right', render: (x) => formatMoney(x.kind === 'invoice' ? x.amount : -x.amount) },
    {
      key: 'status',
      header: 'Status',
      width: 110,
      render: (x) => (
        <Badge color={TRANSMISSION_COLORS[x.status]} variant="light" data-testid={`transmission-status-${x.invoice_id}`}>
          {x.status}
        </Badge>
      ),
    },
    { key: 'reason', header: 'KRA’s reason', render: (x) => <Text size="sm" data-testid={`transmission-reason-${x.invoice_id}`}>{x.reason ?? '—'}</Text> },
    {
      key: 'retry',
      header: '',
      width: 100,
      align: 'right',
      render: (x) => (
        <Button size="compact-sm" variant="light" onClick={() => retry.mutate(x.invoice_id)} loading={retry.isPending && retry.variables === x.invoice_id} data-testid={`transmission-retry-${x.invoice_id}`}>
          Retry
        </Button>
      ),
    },
  ];
  return (
    <Card withBorder data-testid="tax-transmissions">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">Not yet accepted by KRA</Title>
          <Select
            aria-label="Transmission status"
            placeholder="Queued, retrying and rejected"
            clearable
            data={[
              { value: 'queued', label: `Queued (${data?.counts.queued ?? 0})` },
              { value: 'retrying', label: `Retrying (${data?.counts.retrying ?? 0})` },
              { value: 'rejected', label: `Rejected (${data?.counts.rejected ?? 0})` },
            ]}
            value={status ?? null}
            onChange={(v) => { setStatus((v as Transmission['status'] | null) ?? undefined); setPage(1); }}
            data-testid="transmission-status-filter"
          />
        </Group>
        {data && (
          <Text size="sm" data-testid="transmission-counts">
            {data.counts.queued} queued · {data.counts.retrying} retrying · {data.counts.rejected} rejected · {data.older_than_alert} older than {data.alert_hours} h
          </Text>
        )}
        <DataTable
          columns={columns}
          rows={data?.transmissions ?? []}
          rowKey={(x) => x.invoice_id}
          loading={list.isFetching}
          emptyText="KRA has accepted every invoice and credit note."
          label="Invoices not yet accepted by KRA"
          paging={{ page, perPage, totalRecords: data?.total_records ?? 0, onPageChange: setPage, onPerPageChange: (p) => { setPerPage(p); setPage(1); } }}
          data-testid="tax-transmissions-table"
        />
      </Stack>
    </Card>
  );
}

/** /tax (admin): the eTIMS device, invoices and credit notes with their KRA status, the month's summary (decision 035). */
export function TaxPage() {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<PageSize>(DEFAULT_PAGE_SIZE);
  // The money bridge links here with the period's days and a kind (decision 068).
  const [params] = useSearchParams();
  const day = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
  const [range, setRange] = useState<{ from?: string | undefined; to?: string | undefined }>({ from: day(params.get('from')), to: day(params.get('to')) });
  const [status, setStatus] = useState<TaxInvoice['status'] | undefined>(undefined);
  const [kind, setKind] = useState<TaxInvoice['kind'] | undefined>(
    params.get('kind') === 'invoice' || params.get('kind') === 'credit_note' ? (params.get('kind') as TaxInvoice['kind']) : undefined,
  );
  const filters = { ...range, ...(status ? { status } : {}), ...(kind ? { kind } : {}) };
  const invoices = useTaxInvoices({ ...filters, page, perPage });
  const resend = useResendTaxInvoice();
  const data = invoices.data;

  const columns: DataTableColumn<TaxInvoice>[] = [
    { key: 'number', header: 'Number', width: 110, card: 'title', render: (i) => (i.kind === 'invoice' ? `${i.number}` : `CN ${i.number} (of ${i.original_number})`) },
    { key: 'time', header: 'Time', width: 145, render: (i) => formatDateTime(i.time) },
    { key: 'buyer_phone', header: 'Buyer', width: 115, render: (i) => i.buyer_phone ?? '' },
    { key: 'item', header: 'Item', render: (i) => i.item },
    { key: 'amount', header: 'Amount', width: 110, align: 'right', render: (i) => formatMoney(i.kind === 'invoice' ? i.amount : -i.amount) },
    { key: 'tax', header: 'Tax', width: 100, align: 'right', render: (i) => `${formatMoney(i.tax)} ${i.tax_type}` },
    {
      key: 'status',
      header: 'Status',
      width: 120,
      render: (i) => (
        <Stack gap={2} align="flex-start">
          <Badge color={STATUS_COLORS[i.status]} variant="light" data-testid={`tax-status-${i.id}`}>
            {i.status}
          </Badge>
          {i.reason && i.status !== 'sent' && (
            <Text size="xs" c={i.status === 'rejected' ? 'red.8' : 'dimmed'} data-testid={`tax-reason-${i.id}`}>
              {i.reason}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'kra_receipt_number', header: 'KRA receipt', width: 100, render: (i) => i.kra_receipt_number ?? '' },
    {
      // The printable document, and Resend for one KRA rejected: one column, so the table fits 1366 px.
      key: 'document',
      header: 'Document',
      // 170 px keeps the table inside its box at 1366 px; a rejected row's Resend goes to a second line.
      width: 170,
      render: (i) => (
        <Group gap={4}>
          <Button size="compact-sm" variant="subtle" onClick={() => void downloadInvoiceDocument(i.id, i.number)} data-testid={`tax-pdf-${i.id}`}>
            PDF
          </Button>
          {i.buyer_phone && <SendInvoiceLinkButton id={i.id} number={i.number} testId={`tax-sms-link-${i.id}`} />}
          {i.status === 'rejected' && (
            <Button size="compact-sm" variant="light" onClick={() => resend.mutate(i.id)} data-testid={`tax-resend-${i.id}`}>
              Resend
            </Button>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Title order={1} size="h2">Tax</Title>
      <DeviceSettings />
      <Transmissions />
      <Card withBorder>
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h3">Invoices and credit notes</Title>
            <Group>
              <Select
                aria-label="Status"
                placeholder="Any status"
                clearable
                data={['awaiting', 'queued', 'sent', 'rejected']}
                value={status ?? null}
                onChange={(v) => { setStatus((v as TaxInvoice['status'] | null) ?? undefined); setPage(1); }}
                data-testid="tax-status-filter"
              />
              <Select
                aria-label="Kind"
                placeholder="Invoices and credit notes"
                clearable
                data={[{ value: 'invoice', label: 'Invoices' }, { value: 'credit_note', label: 'Credit notes' }]}
                value={kind ?? null}
                onChange={(v) => { setKind((v as TaxInvoice['kind'] | null) ?? undefined); setPage(1); }}
              />
            </Group>
          </Group>
          {data && (
            <Text size="sm" data-testid="tax-totals">
              {data.total_records} documents · net amount {formatMoney(data.total_amount)} · net tax {formatMoney(data.total_tax)}
            </Text>
          )}
          {data?.invoices.some((i) => i.status === 'rejected') && (
            <Alert color="red" title="KRA refused some invoices">
              KRA&apos;s reason is under each rejected status; correct the setting or item at fault, then resend.
            </Alert>
          )}
          <DataTable
            columns={columns}
            rows={data?.invoices ?? []}
            rowKey={(i) => i.id}
            loading={invoices.isFetching}
            emptyText="No invoices in these days."
          label="Invoices and credit notes"
            dateRange={{ from: range.from, to: range.to, onChange: (from, to) => { setRange({ from, to }); setPage(1); } }}
            exportCsv={{ path: '/api/tax/invoices/export', query: filters, filename: 'tax-invoices.csv' }}
            paging={{ page, perPage, totalRecords: data?.total_records ?? 0, onPageChange: setPage, onPerPageChange: (p) => { setPerPage(p); setPage(1); } }}
            data-testid="tax-invoices-table"
          />
        </Stack>
      </Card>
      <MonthSummary />
      <BooksPeriodsCard />
    </Stack>
  );
}
