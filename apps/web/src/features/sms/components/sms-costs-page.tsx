import { useState } from 'react';
import { Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { exportSmsCostReport, type SmsCostLine } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatMoney } from '@/lib/format.ts';
import { useSmsCostReport } from '../api/get-sms-providers.ts';
import { providerLabel } from '@/components/sms-provider-label.ts';

const KIND_LABELS: Record<SmsCostLine['sms_class'], string> = {
  transactional: 'Transactional (codes, receipts)',
  service: 'Service (paid tips)',
  promotional: 'Promotional',
};

/** This month in Nairobi, YYYY-MM. */
const thisMonth = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 7);

/** /sms/costs (admins): a month's SMS cost per provider and kind of text, and its CSV (decision 062). */
export function SmsCostsPage() {
  const [month, setMonth] = useState(thisMonth());
  const valid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
  const report = useSmsCostReport(valid ? month : thisMonth());
  const columns: DataTableColumn<SmsCostLine>[] = [
    { key: 'provider', header: 'Provider', render: (r) => providerLabel(r.provider), width: 180 },
    { key: 'sms_class', header: 'Kind of text', render: (r) => KIND_LABELS[r.sms_class] },
    { key: 'messages', header: 'Messages', align: 'right', render: (r) => r.messages.toLocaleString('en-KE'), width: 110 },
    { key: 'parts', header: 'Parts', align: 'right', render: (r) => r.parts.toLocaleString('en-KE'), width: 110 },
    { key: 'cost', header: 'Cost', align: 'right', render: (r) => formatMoney(r.cost), width: 130 },
  ];
  const total = report.data?.total;
  return (
    <Stack>
      <Title order={1} size="h2">SMS costs</Title>
      <Card withBorder>
        <TextInput
          label="Month (YYYY-MM)"
          value={month}
          onChange={(e) => setMonth(e.currentTarget.value)}
          error={valid ? undefined : 'The month is YYYY-MM, e.g. 2026-11'}
          w={220}
          mb="md"
          data-testid="sms-costs-month"
        />
        <DataTable
          columns={columns}
          rows={report.data?.rows ?? []}
          rowKey={(r) => `${r.provider}:${r.sms_class}`}
          loading={report.isFetching}
          emptyText="No SMS handed to a provider this month."
          exportCsv={{ path: exportSmsCostReport.path, query: { month: report.data?.month ?? month }, filename: `sms-cost-${report.data?.month ?? month}.csv` }}
          data-testid="sms-costs-table"
        />
        {total && (
          <Text size="sm" mt="sm" data-testid="sms-costs-total">
            Total: {total.messages.toLocaleString('en-KE')} messages, {total.parts.toLocaleString('en-KE')} parts, {formatMoney(total.cost)}.
            Where a provider did not say what a message cost, its parts are priced at the provider's price per part (settings).
          </Text>
        )}
      </Card>
    </Stack>
  );
}
