import { useState } from 'react';
import { Alert, Badge, Button, Card, FileInput, Group, List, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  exportReconciliation,
  reconciliationTexts,
  STATEMENT_KINDS,
  type ReconciliationDay,
  type ReconciliationFigure,
  type ReconciliationRow,
  type StatementKind,
  type StatementSummary,
} from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { isHttpError } from '@/lib/http.ts';
import { formatCount, formatDateTime, formatMoney, plural } from '@/lib/format.ts';
import { useFigureRows } from '../api/get-figure-rows.ts';
import { useReconciliation } from '../api/get-reconciliation.ts';
import { useReconciliationStatus } from '../api/get-reconciliation-status.ts';
import { useLatestStatement } from '../api/get-statements.ts';
import { useImportMissingReceipts } from '../api/import-missing-receipts.ts';
import { useRunMoneyCheck } from '../api/run-money-check.ts';
import { useRunPull } from '../api/run-pull.ts';
import { useStatement } from '../api/show-statement.ts';
import { useUploadStatement } from '../api/upload-statement.ts';

const money = (v: number | null) => (v === null ? '' : formatMoney(v));

/** A statement row beside the payment of the same receipt: each side's amount and time. */
const rowColumns: DataTableColumn<ReconciliationRow>[] = [
  { key: 'transaction_reference', header: 'Ref No.', render: (r) => r.transaction_reference ?? '' },
  { key: 'statement_amount', header: 'On statement', align: 'right', render: (r) => money(r.statement_amount) },
  { key: 'statement_time', header: 'Statement time', render: (r) => (r.statement_time ? formatDateTime(r.statement_time) : '') },
  { key: 'payment_amount', header: 'In Betdesk', align: 'right', render: (r) => money(r.payment_amount) },
  { key: 'payment_time', header: 'Betdesk time', render: (r) => (r.payment_time ? formatDateTime(r.payment_time) : '') },
  {
    key: 'payment_status',
    header: 'Status',
    render: (r) => (r.payment_status ? <Badge color={r.payment_status === 'claimed' ? 'green' : r.payment_status === 'unclaimed' ? 'orange' : 'red'}>{r.payment_status}</Badge> : <Badge color="gray">not in Betdesk</Badge>),
  },
  { key: 'payer', header: 'Payer', render: (r) => r.paid_to ?? r.sender_name ?? r.other_party ?? '' },
  { key: 'account_number', header: 'Account', render: (r) => r.account_number ?? '' },
];

const kindLabels: Record<StatementKind, string> = {
  missing: 'Missing',
  mismatched: 'Mismatched',
  not_on_statement: 'Not on statement',
  matched: 'Matched',
};

function PullCard() {
  const status = useReconciliationStatus();
  const pull = useRunPull();
  const s = status.data;
  const last = s?.last_pull;
  return (
    <Card withBorder data-testid="pull-status">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">Pull Transactions</Title>
        <Button size="xs" variant="light" disabled={!s?.pull_configured} loading={pull.isPending} onClick={() => pull.mutate()}>
          Pull now
        </Button>
      </Group>
      {s && !s.pull_configured && <Text c="dimmed">{reconciliationTexts.pullOff}</Text>}
      {s?.pull_configured && (
        <Text size="sm" c="dimmed">
          Every {s.pull_interval_hours === 0 ? '— (off)' : `${s.pull_interval_hours} h`}: asks Daraja for payments whose confirmation never came.
        </Text>
      )}
      {last ? (
        <Stack gap={2} mt="xs">
          <Text size="sm">
            Last run {formatDateTime(last.started_at)}{' '}
            <Badge color={last.status === 'ok' ? 'green' : last.status === 'failed' ? 'red' : 'gray'}>{last.status}</Badge>
          </Text>
          <Text size="sm" data-testid="pull-counts">
            {last.rows_seen} seen, {last.rows_recovered} recovered
          </Text>
          {last.error && <Text size="sm" c="red">{last.error}</Text>}
        </Stack>
      ) : (
        s?.pull_configured && <Text size="sm" mt="xs">Not run yet.</Text>
      )}
    </Card>
  );
}

function MoneyCheckCard() {
  const status = useReconciliationStatus();
  const run = useRunMoneyCheck();
  const check = status.data?.money_check;
  return (
    <Card withBorder data-testid="money-check">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">Money check</Title>
        <Button size="xs" variant="light" loading={run.isPending} onClick={() => run.mutate()}>
          Check now
        </Button>
      </Group>
      {!check && <Text size="sm" c="dimmed">Runs every night; not run yet.</Text>}
      {check && (
        <Stack gap={4}>
          <Text size="sm">
            {formatDateTime(check.ran_at)} <Badge color={check.ok ? 'green' : 'red'}>{check.ok ? 'all in balance' : 'failed'}</Badge>
          </Text>
          {check.failures.map((f) => (
            <div key={f.check}>
              <Text size="sm" fw={600} c="red">
                {f.check}: {f.count}
              </Text>
              <List size="xs">
                {f.examples.map((e) => (
                  <List.Item key={e}>{e}</List.Item>
                ))}
              </List>
            </div>
          ))}
        </Stack>
      )}
    </Card>
  );
}

function StatementResult({ summary }: { summary: StatementSummary }) {
  const [kind, setKind] = useState<StatementKind>('missing');
  const table = useTableState(undefined, { prefix: 'statement' });
  const shown = useStatement(summary.statement_id, kind, table.page, table.perPage);
  const importMissing = useImportMissingReceipts();
  const s = shown.data?.statement ?? summary;
  const counts: Record<StatementKind, number> = { missing: s.missing, mismatched: s.mismatched, not_on_statement: s.not_on_statement, matched: s.matched };
  return (
    <Stack data-testid="statement-result">
      <Text size="sm" c="dimmed">
        {s.file_name ?? 'Statement'}: {formatDateTime(s.period_from)} to {formatDateTime(s.period_to)}, {plural(s.rows, 'row')}, {formatCount(s.paid_in_rows)} paid in
      </Text>
      <FigureBoxes
        figures={[
          { label: 'Matched', value: s.matched, color: 'teal.8', testId: 'statement-matched' },
          { label: 'Missing in Betdesk', value: s.missing, color: s.missing ? 'red' : undefined, testId: 'statement-missing' },
          { label: 'Mismatched', value: s.mismatched, color: s.mismatched ? 'orange.7' : undefined, testId: 'statement-mismatched' },
          { label: 'Not on statement', value: s.not_on_statement, color: s.not_on_statement ? 'orange.7' : undefined, testId: 'statement-not-on' },
        ]}
      />
      <Text size="sm">
        Paid in {formatMoney(s.paid_in.amount)} · withdrawals {s.withdrawals.rows} ({formatMoney(s.withdrawals.amount)}) · charges{' '}
        {s.charges.rows} ({formatMoney(s.charges.amount)}) · reversals {s.reversals.rows} ({formatMoney(s.reversals.amount)})
        {s.other.rows > 0 ? ` · not completed ${s.other.rows}` : ''}
      </Text>
      <Group>
        <Button
          color="red"
          disabled={s.missing === 0}
          loading={importMissing.isPending}
          onClick={() => importMissing.mutate(s.statement_id)}
          data-testid="import-missing"
        >
          Import missing receipts ({s.missing})
        </Button>
      </Group>
      <SegmentedControl
        value={kind}
        onChange={(v) => {
          setKind(v as StatementKind);
          table.setPage(1);
        }}
        data={STATEMENT_KINDS.map((k) => ({ value: k, label: `${kindLabels[k]} (${counts[k]})` }))}
        style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
      />
      <DataTable
        columns={rowColumns}
        rows={shown.data?.rows[kind] ?? []}
        rowKey={(r, i) => `${r.transaction_reference}-${i}`}
        loading={shown.isFetching}
        paging={table.paging(counts[kind])}
        emptyText="No rows of this kind."
        data-testid="statement-rows"
      />
    </Stack>
  );
}

function StatementCard() {
  const latest = useLatestStatement();
  const upload = useUploadStatement();
  const [file, setFile] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<(StatementSummary & { skipped_lines?: { line: number; text: string }[] }) | null>(null);
  const fileError = isHttpError(upload.error) ? (upload.error.errors?.file?.[0] ?? upload.error.info) : null;
  const summary = uploaded ?? latest.data ?? null;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        Statement from the M-Pesa portal
      </Title>
      <Group align="flex-end" mb="md">
        <FileInput
          label="Statement (CSV or Excel)"
          placeholder="Choose the CSV or .xlsx the portal exported"
          accept=".csv,text/csv,.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          value={file}
          onChange={setFile}
          error={fileError}
          clearable
          style={{ flex: 1, minWidth: 220 }}
          data-testid="statement-file"
        />
        <Button
          disabled={!file}
          loading={upload.isPending}
          onClick={() => file && upload.mutate(file, { onSuccess: (result) => setUploaded(result) })}
          data-testid="upload-statement"
        >
          Upload and compare
        </Button>
      </Group>
      {uploaded?.skipped_lines?.map((l) => (
        <Text key={l.line} size="sm" c="dimmed" mb="xs" data-testid="statement-skipped-line">
          Line {l.line} left out, not a transaction: {l.text}
        </Text>
      ))}
      {summary ? <StatementResult key={summary.statement_id} summary={summary} /> : <Text c="dimmed">No statement uploaded yet.</Text>}
    </Card>
  );
}

const figureLabels: Record<ReconciliationFigure, string> = {
  received: 'Received',
  claimed: 'Claimed',
  unclaimed: 'Unclaimed',
  refunded: 'Refunded',
  rejected: 'Rejected',
  on_statement: 'On statement',
  difference: 'Difference',
};

function DaysCard() {
  const [range, setRange] = useState<{ from?: string; to?: string }>({});
  const [pick, setPick] = useState<{ day: string; figure: ReconciliationFigure } | null>(null);
  const days = useReconciliation(range);
  const table = useTableState(undefined, { prefix: 'figures' });
  const rows = useFigureRows(pick, table.page, table.perPage);
  const rangeError = isHttpError(days.error) ? (days.error.errors?.to?.[0] ?? days.error.errors?.from?.[0] ?? days.error.info) : null;

  const link = (d: ReconciliationDay, figure: ReconciliationFigure, text: string, color?: string) => (
    <Button
      variant="subtle"
      size="compact-sm"
      color={color}
      onClick={() => {
        setPick({ day: d.day, figure });
        table.setPage(1);
      }}
      data-testid={`${figure}-${d.day}`}
    >
      {text}
    </Button>
  );
  const columns: DataTableColumn<ReconciliationDay>[] = [
    { key: 'day', header: 'Day' },
    { key: 'received', header: 'Received', align: 'right', render: (d) => link(d, 'received', `${formatMoney(d.received)} (${d.received_count})`) },
    { key: 'claimed', header: 'Claimed', align: 'right', render: (d) => link(d, 'claimed', formatMoney(d.claimed)) },
    { key: 'unclaimed', header: 'Unclaimed', align: 'right', render: (d) => link(d, 'unclaimed', formatMoney(d.unclaimed), d.unclaimed ? 'orange' : undefined) },
    { key: 'refunded', header: 'Refunded', align: 'right', render: (d) => link(d, 'refunded', formatMoney(d.refunded), d.refunded ? 'grape' : undefined) },
    { key: 'rejected', header: 'Rejected', align: 'right', render: (d) => link(d, 'rejected', String(d.rejected_count), d.rejected_count ? 'red' : undefined) },
    {
      key: 'on_statement',
      header: 'On statement',
      align: 'right',
      render: (d) => (d.on_statement === null ? <Text span c="dimmed" size="sm">no statement</Text> : link(d, 'on_statement', formatMoney(d.on_statement))),
    },
    {
      key: 'difference',
      header: 'Difference',
      align: 'right',
      render: (d) => (d.difference === null ? '' : link(d, 'difference', formatMoney(d.difference), d.difference === 0 ? 'teal' : 'red')),
    },
  ];

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        Daily money check
      </Title>
      <Group align="flex-end" mb="sm">
        <TextInput label="From" type="date" value={range.from ?? ''} onChange={(e) => setRange((r) => ({ ...r, from: e.currentTarget.value || undefined }))} />
        <TextInput label="To" type="date" value={range.to ?? ''} onChange={(e) => setRange((r) => ({ ...r, to: e.currentTarget.value || undefined }))} error={rangeError} />
      </Group>
      <Text size="sm" c="dimmed" mb="xs">
        Received = claimed + unclaimed + refunded: claimed and unclaimed are what is left of the day's payments after refunds, refunded what
        refunds returned of them.
      </Text>
      <DataTable
        columns={columns}
        rows={[...(days.data?.days ?? [])].reverse()}
        rowKey={(d) => d.day}
        loading={days.isFetching}
        exportCsv={{ path: exportReconciliation.path, query: range, filename: 'money-check.csv' }}
        emptyText="No days."
        data-testid="reconciliation-days"
      />
      {pick && (
        <Stack mt="md" data-testid="figure-rows">
          <Group justify="space-between">
            <Title order={3} size="h5">
              {figureLabels[pick.figure]} on {pick.day}
            </Title>
            <Button size="compact-xs" variant="subtle" onClick={() => setPick(null)}>
              Close
            </Button>
          </Group>
          <DataTable
            columns={rowColumns}
            rows={rows.data?.rows ?? []}
            rowKey={(r, i) => `${r.transaction_reference}-${i}`}
            loading={rows.isFetching}
            paging={table.paging(rows.data?.total_records ?? 0)}
            emptyText="No rows."
          />
        </Stack>
      )}
    </Card>
  );
}

/**
 * /mpesa/reconciliation (admins): does what M-Pesa says it received match Betdesk, day by day?
 * The pull job and the nightly check, a portal statement's comparison with a one-click import of
 * the receipts Betdesk missed, and the daily figures with the rows behind each.
 */
export function ReconciliationPage() {
  const status = useReconciliationStatus();
  const failed = status.data?.money_check && !status.data.money_check.ok;
  return (
    <Stack>
      <Title order={1} size="h2">M-Pesa Reconciliation</Title>
      {failed && (
        <Alert color="red" title="The money check failed">
          Some figures do not add up; the failures are listed under Money check.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <PullCard />
        <MoneyCheckCard />
      </SimpleGrid>
      <StatementCard />
      <DaysCard />
    </Stack>
  );
}
