import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Card, Checkbox, Group, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { DEFAULT_PAGE_SIZE, nairobiDayOf, type PageSize, type TaxInvoice } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { isHttpError } from '@/lib/http.ts';
import { useInitialiseTaxDevice, useSaveTaxSettings, useTaxSettings } from '../api/get-tax-settings.ts';
import { useResendTaxInvoice, useTaxInvoices } from '../api/get-tax-invoices.ts';
import { useTaxSummary } from '../api/get-tax-summary.ts';

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
          <TextInput type="month" aria-label="Month" value={month} onChange={(e) => e.currentTarget.value && setMonth(e.currentTarget.value)} data-testid="tax-month" />
        </Group>
        <Table.ScrollContainer minWidth={520}>
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

/** /tax (admin): the eTIMS device, invoices and credit notes with their KRA status, the month's summary (decision 035). */
export function TaxPage() {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<PageSize>(DEFAULT_PAGE_SIZE);
  const [range, setRange] = useState<{ from?: string | undefined; to?: string | undefined }>({});
  const [status, setStatus] = useState<TaxInvoice['status'] | undefined>(undefined);
  const [kind, setKind] = useState<TaxInvoice['kind'] | undefined>(undefined);
  const filters = { ...range, ...(status ? { status } : {}), ...(kind ? { kind } : {}) };
  const invoices = useTaxInvoices({ ...filters, page, perPage });
  const resend = useResendTaxInvoice();
  const data = invoices.data;

  const columns: DataTableColumn<TaxInvoice>[] = [
    { key: 'number', header: 'Number', width: 110, card: 'title', render: (i) => (i.kind === 'invoice' ? `${i.number}` : `CN ${i.number} (of ${i.original_number})`) },
    { key: 'time', header: 'Time', width: 160, render: (i) => formatDateTime(i.time) },
    { key: 'buyer_phone', header: 'Buyer', width: 130, render: (i) => i.buyer_phone ?? '' },
    { key: 'item', header: 'Item', render: (i) => i.item },
    { key: 'amount', header: 'Amount', width: 110, align: 'right', render: (i) => formatMoney(i.kind === 'invoice' ? i.amount : -i.amount) },
    { key: 'tax', header: 'Tax', width: 100, align: 'right', render: (i) => `${formatMoney(i.tax)} ${i.tax_type}` },
    {
      key: 'status',
      header: 'Status',
      width: 120,
      render: (i) => (
        <Badge color={STATUS_COLORS[i.status]} variant="light" title={i.reason ?? undefined} data-testid={`tax-status-${i.id}`}>
          {i.status}
        </Badge>
      ),
    },
    { key: 'kra_receipt_number', header: 'KRA receipt', width: 110, render: (i) => i.kra_receipt_number ?? '' },
    {
      key: 'resend',
      header: '',
      width: 100,
      align: 'right',
      render: (i) =>
        i.status === 'rejected' ? (
          <Button size="compact-sm" variant="light" onClick={() => resend.mutate(i.id)} data-testid={`tax-resend-${i.id}`}>
            Resend
          </Button>
        ) : null,
    },
  ];

  return (
    <Stack>
      <Title order={2}>Tax</Title>
      <DeviceSettings />
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
              Hover a rejected status for KRA&apos;s reason; correct the setting or item at fault, then resend.
            </Alert>
          )}
          <DataTable
            columns={columns}
            rows={data?.invoices ?? []}
            rowKey={(i) => i.id}
            loading={invoices.isFetching}
            emptyText="No invoices in these days."
            dateRange={{ from: range.from, to: range.to, onChange: (from, to) => { setRange({ from, to }); setPage(1); } }}
            exportCsv={{ path: '/api/tax/invoices/export', query: filters, filename: 'tax-invoices.csv' }}
            paging={{ page, perPage, totalRecords: data?.total_records ?? 0, onPageChange: setPage, onPerPageChange: (p) => { setPerPage(p); setPage(1); } }}
            data-testid="tax-invoices-table"
          />
        </Stack>
      </Card>
      <MonthSummary />
    </Stack>
  );
}
