import { useState } from 'react';
import { Button, Card, Stack, Title } from '@mantine/core';
import type { Client } from '@betdesk/contract';
import { DataTable, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { NewBetModal, type NewBetClient } from '@/components/new-bet-modal.tsx';
import { formatCount, formatMoney } from '@/lib/format.ts';
import { useActiveClients } from '../api/get-active-clients.ts';
import { clientColumns } from './client-columns.tsx';

/** /clients/active: clients with a running subscription, paged, sortable and searchable, with a New Bet per client. */
export function ActiveClientsPage() {
  const table = useTableState('activeClients');
  const clients = useActiveClients(table.query);
  const [betFor, setBetFor] = useState<NewBetClient | null>(null);
  const data = clients.data;
  const columns: DataTableColumn<Client>[] = [
    ...clientColumns.filter((c) => c.key !== 'status' && c.key !== 'joined_on'),
    { key: 'pending_bonus', header: 'Unpaid bonus', render: (c) => formatMoney(c.pending_bonus), align: 'right', width: WIDTH.money, fit: true },
    {
      key: 'new-bet',
      header: '',
      width: WIDTH.action, fit: true,
      render: (c) => (
        <Button size="xs" onClick={() => setBetFor({ id: c.id, name: c.name })} data-testid="new-bet">
          New Bet
        </Button>
      ),
    },
  ];
  return (
    <Stack>
      <Title order={1} size="h2">Active Clients</Title>
      <FigureBoxes
        figures={[
          { label: 'Active clients', value: formatCount(data?.total_active_clients ?? 0), color: 'green.8' },
          { label: 'All clients', value: formatCount(data?.total_clients ?? 0) },
        ]}
      />
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={data?.active_clients ?? []}
          rowKey={(c) => c.id}
          loading={clients.isFetching}
          emptyText="No active clients."
          {...table.listProps('Name or phone, then Enter', data, { path: '/api/clients/active/export', filename: 'active-clients.csv' })}
          data-testid="active-clients-table"
        />
      </Card>
      <NewBetModal client={betFor} onClose={() => setBetFor(null)} />
    </Stack>
  );
}
