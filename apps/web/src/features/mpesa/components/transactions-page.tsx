import { useCallback, useState } from 'react';
import { Button, Card, List, Stack, Text, Title } from '@mantine/core';
import { confirmTexts, type MpesaTransaction } from '@betdesk/contract';
import { confirmTrash } from '@/components/confirm-trash.tsx';
import { actionsColumn, DataTable, useTableState } from '@/components/data-table/index.ts';
import { DateRangeNote } from '@/components/data-table/date-range-note.tsx';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { HistoryLink } from '@/components/history-link.tsx';
import { RefundButton, RefundRequestModal } from '@/components/refund-request/index.ts';
import { formatMoney } from '@/lib/format.ts';
import { transactionLists, useTransactions, type TransactionsView } from '../api/get-transactions.ts';
import { useUnclaimPayment } from '../api/unclaim-payment.ts';
import { ClaimModal } from './claim-modal.tsx';
import { transactionColumns } from './transaction-columns.tsx';

/** What unclaiming a payment reverses (decision 008), for the confirmation. */
function UnclaimDetails({ transaction: t }: { transaction: MpesaTransaction }) {
  const payee = t.client_name ?? t.subscriber_name ?? 'the payee';
  return (
    <Stack gap={4} mt="sm" data-testid="unclaim-details">
      <Text size="sm">
        {formatMoney(t.amount ?? 0)} from {t.sender_name ?? t.sender_phone ?? 'the sender'} (ref {t.transaction_reference}) goes
        back to unclaimed, and what it bought for <b>{payee}</b> is reversed:
      </Text>
      <List size="sm">
        {t.client_id !== null ? (
          <>
            <List.Item>a Bet4Me subscription it paid for ends now;</List.Item>
            <List.Item>bonuses it paid are owed again;</List.Item>
          </>
        ) : (
          <List.Item>a tips subscription it paid for ends now;</List.Item>
        )}
        <List.Item>credit it left on the account balance is taken back.</List.Item>
      </List>
    </Stack>
  );
}

/**
 * /mpesa: every payment, searchable by sender name, phone or ref (on Enter); /mpesa/unclaimed:
 * those no one was found for, each with a Claim action. A claimed payment can be unclaimed.
 */
export function TransactionsPage({ view }: { view: TransactionsView }) {
  const table = useTableState(transactionLists[view].list);
  const transactions = useTransactions(view, table.query);
  const unclaim = useUnclaimPayment();
  const [claiming, setClaiming] = useState<MpesaTransaction | null>(null);
  const [refunding, setRefunding] = useState<MpesaTransaction | null>(null);
  const stopRefunding = useCallback(() => setRefunding(null), []);
  const data = transactions.data;
  /** Unclaiming reverses money: ask first. */
  const unclaimAfterConfirm = async (t: MpesaTransaction) => {
    const confirmed = await confirmTrash({
      title: 'Unclaim this payment?',
      message: confirmTexts.trash,
      confirmLabel: 'Yes, unclaim it',
      details: <UnclaimDetails transaction={t} />,
    });
    if (confirmed) unclaim.mutate(t.id);
  };

  const actions = actionsColumn<MpesaTransaction>(200, (t) => (
    <>
      {paymentAction(t)}
      <RefundButton payment={t} onClick={() => setRefunding(t)} />
      <HistoryLink entity="mpesa_payment" entityId={t.id} compact />
    </>
  ));
  function paymentAction(t: MpesaTransaction) {
    return t.status === 'unclaimed' ? (
        <Button size="compact-xs" onClick={() => setClaiming(t)} data-testid={`claim-${t.transaction_reference}`}>
          Claim
        </Button>
      ) : t.status === 'claimed' ? (
        <Button
          size="compact-xs"
          variant="subtle"
          color="red"
          loading={unclaim.isPending && unclaim.variables === t.id}
          onClick={() => void unclaimAfterConfirm(t)}
          data-testid={`unclaim-${t.transaction_reference}`}
        >
          Unclaim
        </Button>
      ) : null;
  }

  return (
    <Stack>
      <Title order={1} size="h2">{view === 'unclaimed' ? 'Unclaimed M-Pesa Transactions' : 'M-Pesa Transactions'}</Title>
      <DateRangeNote from={table.from} to={table.to} />
      {/* Only figures the server gave: someone refused the list (staff) sees no made-up KES 0.00. */}
      {data && (
        <FigureBoxes
          figures={[
            { label: 'Total deposit', value: formatMoney(data.total_deposit), testId: 'total-deposit' },
            { label: 'Unclaimed', value: formatMoney(data.total_unclaimed), color: 'orange', testId: 'total-unclaimed' },
          ]}
        />
      )}
      <Card withBorder>
        <DataTable
          columns={[...transactionColumns, actions]}
          rows={data?.transactions ?? []}
          rowKey={(t) => t.id}
          loading={transactions.isFetching}
          {...table.listProps('Sender name, phone or ref, then Enter', data, {
            path: transactionLists[view].exportPath,
            filename: view === 'unclaimed' ? 'unclaimed-mpesa-transactions.csv' : 'mpesa-transactions.csv',
          })}
          dateRange={table.dateRange}
          // Names wrap rather than cut: at 1366 px a full Kenyan name (three names, 30 characters) is
          // read whole in Sender Name and Paid to, which share what the fixed columns leave (item 13).
          estimatedRowHeight={40}
          data-testid="mpesa-table"
        />
      </Card>
      <ClaimModal transaction={claiming} onClose={() => setClaiming(null)} />
      <RefundRequestModal payment={refunding} onClose={stopRefunding} />
    </Stack>
  );
}
