import { useState } from 'react';
import { Button, Card, Stack, Title } from '@mantine/core';
import { DataTable } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { NewBetModal, type NewBetClient } from '@/components/new-bet-modal.tsx';
import { formatMoney } from '@/lib/format.ts';
import { useActiveClients } from '../api/get-active-clients.ts';
import { clientColumns } from './client-columns.tsx';

/** /clients/active: clients with a running subscription, the totals, and a New Bet per client. */
export function ActiveClientsPage() {
  const clients = useActiveClients();
  const [betFor, setBetFor] = useState<NewBetClient | null>(null);
  const data = clients.data;
  return (
    <Stack>
      <Title order={2}>Active Clients</Title>
      <FigureBoxes
        figures={[
          { label: 'Active clients', value: (data?.total_active_clients ?? 0).toLocaleString('en-KE'), color: 'green.8' },
          { label: 'All clients', value: (data?.total_clients ?? 0).toLocaleString('en-KE') },
        ]}
      />
      <Card withBorder>
        <DataTable
          columns={[
            ...clientColumns.filter((c) => c.key !== 'status' && c.key !== 'joined_on'),
            { key: 'pending_bonus', header: 'Unpaid bonus', render: (c) => formatMoney(c.pending_bonus), align: 'right', width: 130 },
            {
              key: 'new-bet',
              header: '',
              width: 110,
              render: (c) => (
                <Button size="xs" onClick={() => setBetFor({ id: c.id, name: c.name })} data-testid="new-bet">
                  New Bet
                </Button>
              ),
            },
          ]}
          rows={data?.active_clients ?? []}
          rowKey={(c) => c.id}
          loading={clients.isFetching}
          emptyText="No active clients."
          exportCsv={{ path: '/api/clients/active/export', filename: 'active-clients.csv' }}
          data-testid="active-clients-table"
        />
      </Card>
      <NewBetModal client={betFor} onClose={() => setBetFor(null)} />
    </Stack>
  );
}
