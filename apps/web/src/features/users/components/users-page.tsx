import { useState } from 'react';
import { ActionIcon, Button, Card, Group, Stack, Title, Tooltip } from '@mantine/core';
import { IconEdit, IconHistory, IconTrash, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { localPhone, type User } from '@betdesk/contract';
import { confirmTrash } from '@/components/confirm-trash.tsx';
import { actionsColumn, DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { useUser } from '@/lib/auth.ts';
import { showToast } from '@/lib/feedback.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { isHttpError } from '@/lib/http.ts';
import { auditPathFor } from '@/config/paths.ts';
import { useDeleteUser } from '../api/mutations.ts';
import { useUsers } from '../api/get-users.ts';
import { AdminGrantsCard } from './admin-grants-card.tsx';
import { UserFormModal } from './user-form-modal.tsx';

/** /users (My Users): the staff table with edit, view assigned clients and trash. */
export function UsersPage() {
  const users = useUsers();
  const remove = useDeleteUser();
  const [editing, setEditing] = useState<{ user: User | null } | null>(null);

  const me = useUser();
  // A refused trash (e.g. the last admin) says why; other delete failures stay logged only (spec 8).
  const trash = async (user: User) => {
    if (!(await confirmTrash())) return;
    remove.mutate(
      { id: user.id },
      { onError: (error) => showToast('error', isHttpError(error) && error.info ? error.info : 'The user was not trashed.') },
    );
  };

  const columns: DataTableColumn<User>[] = [
    { key: 'name', header: 'Name' },
    { key: 'phone_number', header: 'Phone', render: (u) => localPhone(u.phone_number) },
    { key: 'email', header: 'Email' },
    { key: 'category_name', header: 'Category', width: 110 },
    { key: 'total_clients', header: 'Assigned clients', align: 'right', width: 140, fit: true },
    { key: 'last_login', header: 'Last login', render: (u) => formatDateTime(u.last_login) || 'Never', width: 170, fit: true },
    actionsColumn<User>(160, (u) => (
      <>
        <Tooltip label="Edit">
          <ActionIcon variant="subtle" aria-label={`Edit ${u.name}`} onClick={() => setEditing({ user: u })}>
            <IconEdit size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Assigned clients">
          <ActionIcon variant="subtle" component={Link} to={`/users/${u.id}/clients`} aria-label={`Clients of ${u.name}`}>
            <IconUsers size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="History">
          <ActionIcon
            variant="subtle"
            component={Link}
            to={auditPathFor('user', u.id)}
            aria-label={`History of ${u.name}`}
            data-testid={`history-user-${u.id}`}
          >
            <IconHistory size={18} />
          </ActionIcon>
        </Tooltip>
        {/* Nobody trashes their own account here (the server refuses it): no icon on your own row. */}
        {u.id !== me?.id && (
          <Tooltip label="Trash">
            <ActionIcon variant="subtle" color="red" aria-label={`Trash ${u.name}`} onClick={() => void trash(u)}>
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        )}
      </>
    )),
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">My Users</Title>
        <Group>
          <Button variant="light" component={Link} to="/users/assign-clients">
            Assign clients
          </Button>
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setEditing({ user: null })} data-testid="register-user">
            Register user
          </Button>
        </Group>
      </Group>
      <AdminGrantsCard />
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={users.data?.users ?? []}
          rowKey={(u) => u.id}
          loading={users.isFetching}
          exportCsv={{ path: '/api/users/export', filename: 'users.csv' }}
          data-testid="users-table"
        />
      </Card>
      <UserFormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        user={editing?.user ?? null}
        categories={users.data?.categories ?? []}
      />
    </Stack>
  );
}
