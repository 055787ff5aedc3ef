import { useState } from 'react';
import { Button, Card, Group, Stack, Title } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { DataTable, useTableState } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { useSession } from '@/lib/auth.ts';
import { useClients } from '../api/get-clients.ts';
import { clientColumns } from './client-columns.tsx';
import { ClientFormModal } from './client-form-modal.tsx';

/** /clients: every client (staff: their own), remote-paged, searched by name or phone on Enter. */
export function ClientsPage() {
  const table = useTableState();
  const clients = useClients(table.page, table.perPage, table.search);
  const { isAdmin } = useSession();
  const [creating, setCreating] = useState(false);
  const data = clients.data;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Clients</Title>
        {isAdmin && (
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-client">
            New client
          </Button>
        )}
      </Group>
      <FigureBoxes
        figures={[
          { label: 'Clients', value: (data?.total_records ?? 0).toLocaleString('en-KE'), testId: 'total-clients' },
          { label: 'Active clients', value: (data?.total_active_clients ?? 0).toLocaleString('en-KE'), color: 'green.8' },
        ]}
      />
      <Card withBorder>
        <DataTable
          columns={clientColumns}
          rows={data?.clients ?? []}
          rowKey={(c) => c.id}
          loading={clients.isFetching}
          search={{ placeholder: 'Name or phone, then Enter', onSearch: table.setSearch }}
          exportCsv={{ path: '/api/clients/export', query: { search: table.search }, filename: 'clients.csv' }}
          paging={table.paging(data?.total_records ?? 0)}
          data-testid="clients-table"
        />
      </Card>
      <ClientFormModal opened={creating} onClose={() => setCreating(false)} client={null} />
    </Stack>
  );
}
