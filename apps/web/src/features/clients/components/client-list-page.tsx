import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import type { Bet, Bet4meSubscription, Bonus, BonusPayment } from '@betdesk/contract';
import { DataTable, StatusBadge, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { TaxInvoiceLink } from '@/components/tax-invoice-link.tsx';
import { formatDate, formatDateTime, formatDuration, formatMoney } from '@/lib/format.ts';
import { clientListNames, useClientList, type ClientListKind } from '../api/get-client-list.ts';

const titles: Record<ClientListKind, string> = {
  subscriptions: 'Subscriptions',
  bets: 'Bets',
  bonuses: 'Bonuses',
  'paid-bonuses': 'Bonus payments',
};

const columns: { [K in ClientListKind]: DataTableColumn<never>[] } = {
  subscriptions: [
    { key: 'done_on', header: 'Done on', render: (s: Bet4meSubscription) => formatDateTime(s.done_on), card: 'title' },
    { key: 'amount', header: 'Amount', render: (s: Bet4meSubscription) => formatMoney(s.amount), align: 'right' },
    { key: 'duration', header: 'Duration', render: (s: Bet4meSubscription) => formatDuration(s.duration) },
    { key: 'expiry_date', header: 'Expiry date', render: (s: Bet4meSubscription) => formatDate(s.expiry_date) },
    { key: 'status', header: 'Status', render: (s: Bet4meSubscription) => <StatusBadge status={s.status_name} /> },
    { key: 'invoice', header: 'Tax invoice', render: (s: Bet4meSubscription) => <TaxInvoiceLink invoice={s.invoice} testId={`subscription-invoice-${s.id}`} /> },
  ],
  bets: [
    { key: 'opened_on', header: 'Opened on', render: (b: Bet) => formatDateTime(b.opened_on), width: WIDTH.dateTime, fit: true },
    { key: 'description', header: 'Bet', card: 'title' },
    { key: 'stake', header: 'Stake', render: (b: Bet) => formatMoney(b.stake), align: 'right', width: WIDTH.money, fit: true },
    { key: 'profit', header: 'Profit', render: (b: Bet) => (b.profit === null ? '' : formatMoney(b.profit)), align: 'right', width: WIDTH.money, fit: true },
    { key: 'bonus', header: 'Bonus', render: (b: Bet) => (b.bonus === null ? '' : formatMoney(b.bonus)), align: 'right', width: WIDTH.money, fit: true },
    { key: 'status', header: 'Status', render: (b: Bet) => <StatusBadge status={b.status} />, width: WIDTH.status, fit: true },
  ],
  bonuses: [
    { key: 'earned_on', header: 'Earned on', render: (b: Bonus) => formatDateTime(b.earned_on) },
    { key: 'stake', header: 'Stake', render: (b: Bonus) => formatMoney(b.stake), align: 'right' },
    { key: 'profit', header: 'Profit', render: (b: Bonus) => formatMoney(b.profit), align: 'right' },
    { key: 'bonus', header: 'Bonus', render: (b: Bonus) => formatMoney(b.bonus), align: 'right' },
    { key: 'pending_bonus', header: 'Unpaid', render: (b: Bonus) => formatMoney(b.pending_bonus), align: 'right' },
  ],
  'paid-bonuses': [
    { key: 'paid_on', header: 'Paid on', render: (p: BonusPayment) => formatDateTime(p.paid_on) },
    { key: 'amount', header: 'Amount', render: (p: BonusPayment) => formatMoney(p.amount), align: 'right' },
    { key: 'description', header: 'Description' },
  ],
} as never;

const rowKeys: Record<ClientListKind, (row: Record<string, number>, index: number) => number> = {
  subscriptions: (r) => r.id!,
  bets: (r) => r.bet_id!,
  bonuses: (r) => r.bonus_id!,
  'paid-bonuses': (r) => r.id!,
};

/** /clients/{client_id}/{subscriptions,bets,bonuses,paid-bonuses}: one paged list of the client. */
export function ClientListPage({ kind }: { kind: ClientListKind }) {
  const clientId = Number(useParams().client_id);
  const table = useTableState(clientListNames[kind]);
  const list = useClientList(kind, clientId, table.query);
  const client = list.data?.client;
  return (
    <Stack>
      <Group justify="space-between">
        <div>
          <Title order={1} size="h2">{titles[kind]}</Title>
          {client && (
            <Text c="dimmed">
              of{' '}
              <Anchor component={Link} to={`/clients/${client.id}`}>
                {client.name}
              </Anchor>
            </Text>
          )}
        </div>
      </Group>
      <Card withBorder>
        <DataTable
          columns={columns[kind]}
          rows={(list.data?.list ?? []) as never[]}
          rowKey={rowKeys[kind] as never}
          loading={list.isFetching}
          emptyText={list.isError ? 'This client could not be loaded.' : undefined}
          sorting={table.sorting}
          exportCsv={{
            path: `/api/clients/${kind}/export`,
            query: { client_id: clientId, ...table.filters },
            filename: `client-${clientId}-${kind}.csv`,
          }}
          paging={table.pagingOf(list.data)}
          data-testid="client-list-table"
        />
      </Card>
    </Stack>
  );
}
