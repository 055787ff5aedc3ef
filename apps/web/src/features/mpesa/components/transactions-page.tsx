import { useState } from 'react';
import { Button, Card, Stack, Title } from '@mantine/core';
import type { MpesaTransaction } from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { formatMoney } from '@/lib/format.ts';
import { useTransactions, type TransactionsView } from '../api/get-transactions.ts';
import { useUnclaimPayment } from '../api/unclaim-payment.ts';
import { ClaimModal } from './claim-modal.tsx';
import { transactionColumns } from './transaction-columns.tsx';

/**
 * /mpesa: every payment, searchable by sender name, phone or ref (on Enter); /mpesa/unclaimed:
 * those no one was found for, each with a Claim action. A claimed payment can be unclaimed.
 */
export function TransactionsPage({ view }: { view: TransactionsView }) {
  const table = useTableState();
  const transactions = useTransactions(view, table.page, table.perPage, table.search);
  const unclaim = useUnclaimPayment();
  const [claiming, setClaiming] = useState<MpesaTransaction | null>(null);
  const data = transactions.data;

  const actions: DataTableColumn<MpesaTransaction> = {
    key: 'actions',
    header: '',
    render: (t) =>
      t.status === 'unclaimed' ? (
        <Button size="compact-xs" onClick={() => setClaiming(t)} data-testid={`claim-${t.transaction_reference}`}>
          Claim
        </Button>
      ) : t.status === 'claimed' ? (
        <Button
          size="compact-xs"
          variant="subtle"
          color="red"
          loading={unclaim.isPending && unclaim.variables === t.id}
          onClick={() => unclaim.mutate(t.id)}
          data-testid={`unclaim-${t.transaction_reference}`}
        >
          Unclaim
        </Button>
      ) : null,
  };

  return (
    <Stack>
      <Title order={2}>{view === 'unclaimed' ? 'Unclaimed M-Pesa Transactions' : 'M-Pesa Transactions'}</Title>
      <FigureBoxes
        figures={[
          { label: 'Total deposit', value: formatMoney(data?.total_deposit ?? 0), testId: 'total-deposit' },
          { label: 'Unclaimed', value: formatMoney(data?.total_unclaimed ?? 0), color: 'orange', testId: 'total-unclaimed' },
        ]}
      />
      <Card withBorder>
        <DataTable
          columns={[...transactionColumns, actions]}
          rows={data?.transactions ?? []}
          rowKey={(t) => t.id}
          loading={transactions.isFetching}
          search={{ placeholder: 'Sender name, phone or ref, then Enter', onSearch: table.setSearch }}
          paging={table.paging(data?.total_records ?? 0)}
          data-testid="mpesa-table"
        />
      </Card>
      <ClaimModal transaction={claiming} onClose={() => setClaiming(null)} />
    </Stack>
  );
}
