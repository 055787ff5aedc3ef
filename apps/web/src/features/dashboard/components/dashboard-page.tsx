import { lazy, Suspense, useState } from 'react';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { DASHBOARD_ACTIVE_CLIENTS, localPhone } from '@betdesk/contract';
import { WIDTH } from '@/components/data-table/column-widths.ts';
import { ShortTable } from '@/components/data-table/short-table.tsx';
import { FigureBoxes, type Figure } from '@/components/figure-boxes.tsx';
import { paths } from '@/config/paths.ts';
import type { NewBetClient } from '@/components/new-bet-modal.tsx';
import { useSession } from '@/lib/auth.ts';
import { formatCount, formatDateTime, formatMoney } from '@/lib/format.ts';
import { useDashboard } from '../api/get-dashboard.ts';
import { useIncomeChart } from '../api/get-income-chart.ts';
import { IncomeChart } from './income-chart.tsx';

// The bet form (and its validation) loads when a bet is started, not with the dashboard.
// The admin's alerts (the money check, backups, tax, SMS banners among them) load in their own
// chunk, for admins only.
const AdminAlerts = lazy(() => import('./admin-alerts.tsx'));
const NewBetModal = lazy(() => import('@/components/new-bet-modal.tsx').then((m) => ({ default: m.NewBetModal })));

/** /dashboard: figures (admin), counts, income chart (admin), recent payments and the top active clients. */
export function DashboardPage() {
  const { isAdmin, user } = useSession();
  const board = useDashboard();
  const chart = useIncomeChart(isAdmin);
  const [betFor, setBetFor] = useState<NewBetClient | null>(null);
  const data = board.data;
  const topClients = (data?.active_clients ?? []).slice(0, DASHBOARD_ACTIVE_CLIENTS);

  const money: Figure[] = data?.total_income !== undefined
    ? [
        {
          label: 'M-Pesa received today',
          value: formatMoney(data.total_income_today),
          color: 'teal.8',
          testId: 'income-today',
          hint: 'Every payment in today, tips and Bet4Me, claimed or not',
        },
        {
          label: 'M-Pesa received, all time',
          value: formatMoney(data.total_income),
          testId: 'total-income',
          hint: 'Every M-Pesa payment stored (rejected ones left out)',
        },
        { label: 'SMS balance', value: data.sms_balance === null ? 'Unknown' : formatMoney(data.sms_balance), testId: 'sms-balance' },
      ]
    : [];
  const counts: Figure[] = [
    // Every count links to its list (staff reach Enter Profit from Open bets).
    { label: 'Active clients', value: data?.total_active_clients ?? '…', testId: 'active-clients-count', to: paths.clients.active },
    { label: 'Open bets', value: data?.total_open_bets ?? '…', testId: 'open-bets-count', to: paths.bets.open },
    { label: 'Unpaid bonuses', value: data?.total_pending_bonus ?? '…', color: 'red', testId: 'unpaid-bonus-count', to: paths.bonuses.unpaid },
  ];

  const recentPayments = (
    <Card withBorder key="payments">
      <Title order={2} size="h4" mb="sm">
        Recent payments
      </Title>
      <ShortTable
        columns={[
          { key: 'name', header: 'Subscriber', card: 'title' },
          { key: 'phone', header: 'Phone', render: (p) => (p.phone ? localPhone(p.phone) : p.sender_msisdn ? <Text span c="dimmed" title="Masked by M-Pesa">{p.sender_msisdn}</Text> : ''), width: WIDTH.phone, fit: true },
          { key: 'transaction_reference', header: 'Ref', width: WIDTH.ref, fit: true },
          { key: 'time', header: 'Time', render: (p) => formatDateTime(p.time), width: WIDTH.dateTime, fit: true },
          { key: 'amount', header: 'Amount', render: (p) => formatMoney(p.amount), align: 'right', width: WIDTH.money, fit: true },
        ]}
        rows={data?.recent_payments ?? []}
        rowKey={(p, i) => `${p.transaction_reference}-${i}`}
        loading={board.isFetching}
        emptyText="No payments yet."
        data-testid="recent-payments-table"
      />
    </Card>
  );
  const activeClients = (
    <Card withBorder key="clients">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">Active clients</Title>
        <Group gap="sm">
          {data && (
            <Text size="sm" c="dimmed" data-testid="dashboard-active-clients-count">
              {topClients.length < data.total_active_clients
                ? `Top ${formatCount(topClients.length)} of ${formatCount(data.total_active_clients)}`
                : `${formatCount(data.total_active_clients)} in all`}
            </Text>
          )}
          <Anchor component={Link} to="/clients/active" size="sm" data-testid="all-active-clients">
            All active clients
          </Anchor>
        </Group>
      </Group>
      <ShortTable
        columns={[
          { key: 'name', header: 'Client', card: 'title' },
          { key: 'phone', header: 'Phone', render: (c) => localPhone(c.phone), width: WIDTH.phone, fit: true },
          { key: 'total_open_bets', header: 'Open bets', align: 'right', width: WIDTH.count, fit: true },
          {
            key: 'actions',
            header: '',
            width: 160,
            render: (c) => (
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" onClick={() => setBetFor({ id: c.client_id, name: c.name })} data-testid="new-bet">
                  New Bet
                </Button>
                <Anchor component={Link} to={`/clients/${c.client_id}`} size="sm">
                  More
                </Anchor>
              </Group>
            ),
          },
        ]}
        rows={topClients}
        rowKey={(c) => c.client_id}
        loading={board.isFetching}
        emptyText="No active clients."
        data-testid="dashboard-active-clients"
      />
    </Card>
  );

  return (
    <Stack>
      <div>
        <Title order={1} size="h2">Dashboard</Title>
        {user && (
          <Text c="dimmed" data-testid="welcome">
            Welcome, {user.name}
          </Text>
        )}
      </div>
      {isAdmin && (
        <Suspense fallback={null}>
          <AdminAlerts />
        </Suspense>
      )}
      {money.length > 0 && (
        <>
          <FigureBoxes figures={money} />
          {/* Decision 027: why these differ from the subscription screens' income. */}
          <Text size="sm" c="dimmed" data-testid="income-reconcile">
            Money received by M-Pesa. Subscriptions sold (paid by M-Pesa or recorded by staff, by the day they are
            sold) are on <Anchor component={Link} to="/subscriptions" size="sm">Bet4Me subscriptions</Anchor> and{' '}
            <Anchor component={Link} to="/tips/subscriptions/all" size="sm">Tips subscriptions</Anchor>; payments not
            yet claimed are on <Anchor component={Link} to="/mpesa/unclaimed" size="sm">Unclaimed</Anchor>.
          </Text>
        </>
      )}
      <FigureBoxes figures={counts} compact />
      {isAdmin && chart.data && <IncomeChart days={chart.data.days} />}
      {/* A staff member's clients come first: on a phone the first New Bet is on the first screen. */}
      <SimpleGrid cols={{ base: 1, xl: 2 }}>{isAdmin ? [recentPayments, activeClients] : [activeClients, recentPayments]}</SimpleGrid>
      {betFor && (
        <Suspense fallback={null}>
          <NewBetModal client={betFor} onClose={() => setBetFor(null)} />
        </Suspense>
      )}
    </Stack>
  );
}
