import { useMemo, useState } from 'react';
import { Button, Card, Checkbox, Group, Select, Stack, Text, Title } from '@mantine/core';
import { errorTexts, localPhone, type AssignableClient } from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { showToast } from '@/lib/feedback.tsx';
import { useAssignmentChoices } from '../api/get-assignment-choices.ts';
import { useSaveClientAssignments } from '../api/mutations.ts';

/**
 * /users/assign-clients: select a user, tick clients, submit. The clients come a page at a time by
 * name (searched on the server); ticks are kept while paging and searching.
 */
export function AssignClientsPage() {
  const table = useTableState();
  const choices = useAssignmentChoices(table.page, table.perPage, table.search);
  const save = useSaveClientAssignments();
  const [userId, setUserId] = useState<string | null>(null);
  const [ticked, setTicked] = useState<Set<number>>(new Set());

  const users = useMemo(() => choices.data?.users ?? [], [choices.data]);
  const ownerName = useMemo(() => new Map(users.map((u) => [u.id, u.name])), [users]);
  const rows = choices.data?.clients ?? [];

  const toggle = (id: number) =>
    setTicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = () => {
    if (!userId) {
      showToast('error', 'Select a user');
      return;
    }
    if (ticked.size === 0) {
      showToast('error', errorTexts.noClientSelected);
      return;
    }
    save.mutate({ user_id: Number(userId), client_ids: [...ticked] }, { onSuccess: () => setTicked(new Set()) });
  };

  const columns: DataTableColumn<AssignableClient>[] = [
    {
      key: 'tick',
      header: '',
      width: 50,
      render: (c) => <Checkbox aria-label={`Tick ${c.name}`} checked={ticked.has(c.id)} onChange={() => toggle(c.id)} data-testid="tick-client" />,
    },
    { key: 'name', header: 'Name' },
    { key: 'phone', header: 'Phone', render: (c) => localPhone(c.phone) },
    { key: 'status', header: 'Status', render: (c) => (c.status === 1 ? 'Active' : 'Inactive'), width: 100, fit: true },
    {
      key: 'assigned_user_id',
      header: 'Assigned to',
      render: (c) => (c.assigned_user_id === null ? <Text c="dimmed">Nobody</Text> : ownerName.get(c.assigned_user_id) ?? ''),
    },
  ];

  return (
    <Stack>
      <Title order={1} size="h2">Assign clients</Title>
      <Card withBorder>
        <Group align="flex-end" wrap="wrap">
          <Select
            label="User"
            placeholder="Select a user"
            data={users.map((u) => ({ value: String(u.id), label: `${u.name} (${u.category_name})` }))}
            value={userId}
            onChange={setUserId}
            searchable
            w={320}
            data-testid="assign-user"
          />
          <Button onClick={submit} loading={save.isPending} data-testid="assign-submit">
            Assign {ticked.size > 0 ? `${ticked.size} ` : ''}clients
          </Button>
        </Group>
      </Card>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(c) => c.id}
          loading={choices.isFetching}
          search={{ placeholder: 'Filter clients: name or phone, then Enter', onSearch: table.setSearch }}
          paging={table.paging(choices.data?.total_records ?? 0)}
          data-testid="assign-clients-table"
        />
      </Card>
    </Stack>
  );
}
