import { useState } from 'react';
import { Button, Card, Group, Stack, Title } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { DataTable, totalOf, useTableState } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { useSession } from '@/lib/auth.ts';
import { formatCount } from '@/lib/format.ts';
import { useClients } from '../api/get-clients.ts';
import { clientColumns } from './client-columns.tsx';
import { ClientFormModal } from './client-form-modal.tsx';

/** /clients: every client (staff: their own), remote-paged, searched by name or phone on Enter. */
export function ClientsPage() {
  const table = useTableState('clients');
  const clients = useClients(table.query);
  const { isAdmin } = useSession();
  const [creating, setCreating] = useState(false);
  const data = clients.data;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Clients</Title>
        {isAdmin && (
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-client">
            New client
          </Button>
        )}
      </Group>
      <FigureBoxes
        figures={[
          { label: 'Clients', value: totalOf(data), testId: 'total-clients' },
          { label: 'Active clients', value: formatCount(data?.total_active_clients ?? 0), color: 'green.8' },
        ]}
      />
      <Card withBorder>
        <DataTable
          columns={clientColumns}
          rows={data?.clients ?? []}
          rowKey={(c) => c.id}
          loading={clients.isFetching}
          {...table.listProps('Name or phone, then Enter', data, { path: '/api/clients/export', filename: 'clients.csv' })}
          data-testid="clients-table"
        />
      </Card>
      <ClientFormModal opened={creating} onClose={() => setCreating(false)} client={null} />
    </Stack>
  );
}
