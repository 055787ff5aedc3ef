import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { ADMIN_CATEGORY_ID, localPhone, type Client } from '@betdesk/contract';
import { confirmTrash } from '@/components/confirm-trash.tsx';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatMoney, plural } from '@/lib/format.ts';
import { useDropClient } from '../api/mutations.ts';
import { useUserClients } from '../api/get-user-clients.ts';

/** /users/{user_id}/clients (users.view-clients): the clients assigned to a user, paged by name, with drop-client. */
export function UserClientsPage() {
  const userId = Number(useParams().user_id);
  const table = useTableState();
  const shown = useUserClients(userId, table.page, table.perPage, table.search);
  const drop = useDropClient();
  const user = shown.data?.user;

  const dropClient = async (client: Client) => {
    if (await confirmTrash()) drop.mutate({ user_id: userId, client_id: client.id });
  };

  const columns: DataTableColumn<Client>[] = [
    { key: 'name', header: 'Name' },
    { key: 'phone', header: 'Phone', render: (c) => localPhone(c.phone) },
    { key: 'status', header: 'Status', render: (c) => (c.status === 1 ? 'Active' : 'Inactive'), width: 100, fit: true },
    { key: 'total_bets', header: 'Bets', align: 'right', width: 80, fit: true },
    { key: 'pending_bonus', header: 'Unpaid bonus', render: (c) => formatMoney(c.pending_bonus), align: 'right' },
  ];
  if (user && user.category_id !== ADMIN_CATEGORY_ID) {
    columns.push({
      key: 'drop',
      header: '',
      width: 120,
      render: (c) => (
        <Button size="xs" color="red" variant="light" onClick={() => void dropClient(c)} data-testid="drop-client">
          Drop client
        </Button>
      ),
    });
  }

  return (
    <Stack>
      <Group justify="space-between">
        <div>
          <Title order={1} size="h2">Assigned clients</Title>
          {user && (
            <Text c="dimmed">
              {user.name} · {user.category_name} · {plural(user.total_clients, 'client')}
            </Text>
          )}
        </div>
      </Group>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={shown.data?.clients ?? []}
          rowKey={(c) => c.id}
          loading={shown.isFetching}
          emptyText={shown.isError ? 'This user could not be loaded.' : 'No client is assigned to this user.'}
          search={{ placeholder: 'Name or phone, then Enter', onSearch: table.setSearch }}
          paging={table.paging(shown.data?.total_records ?? 0)}
          exportCsv={{
            path: '/api/users/show-clients/export',
            query: { user_id: userId, search: table.search },
            filename: `user-${userId}-clients.csv`,
          }}
          data-testid="user-clients-table"
        />
      </Card>
    </Stack>
  );
}
