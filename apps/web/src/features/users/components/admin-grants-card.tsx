import { useState } from 'react';
import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { localPhone, type AdminGrant } from '@betdesk/contract';
import { actionsColumn, DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { HistoryLink } from '@/components/history-link.tsx';
import { RowMutationButton } from '@/components/row-mutation-button.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useAdminGrants, useDeclineAdminGrant } from '../api/admin-grants.ts';
import { ApproveAdminGrantModal } from './approve-admin-grant-modal.tsx';

const KIND_LABELS: Record<AdminGrant['kind'], string> = {
  new_user: 'New admin',
  promotion: 'Moved to admin',
  operator: 'Made on the server',
  before_grants: 'Admin before grants',
};

const columns: DataTableColumn<AdminGrant>[] = [
  {
    key: 'user_name',
    header: 'User',
    render: (g) => (
      <>
        {g.user_name}
        <Text span size="xs" c="dimmed" display="block">
          {g.user_email}, {localPhone(g.user_phone)}
        </Text>
      </>
    ),
    card: 'title',
  },
  { key: 'kind', header: 'Asked', render: (g) => KIND_LABELS[g.kind], width: 150, fit: true },
  {
    key: 'requested_by',
    header: 'Asked by',
    render: (g) => (
      <>
        {g.requested_by ?? 'An admin'}
        <Text span size="xs" c="dimmed" display="block">
          {formatDateTime(g.requested_at)}
        </Text>
      </>
    ),
  },
];

/**
 * The Users screen's Admin rights (decision 056): rights asked for a user wait here until a second
 * admin approves them with their code (never the admin who asked) or any admin declines them; those
 * decided within the cooling-off days stay listed below.
 */
export function AdminGrantsCard() {
  const grants = useAdminGrants();
  const decline = useDeclineAdminGrant();
  const [approving, setApproving] = useState<AdminGrant | null>(null);
  const data = grants.data;
  if (!data || (data.pending.length === 0 && data.recent.length === 0)) return null;

  const actions = actionsColumn<AdminGrant>(200, (g) => (
    <>
      <Button size="compact-xs" onClick={() => setApproving(g)} data-testid={`approve-admin-grant-${g.id}`}>
        Approve
      </Button>
      <RowMutationButton mutation={decline} of={g.id} size="compact-xs" variant="subtle" color="red" data-testid={`decline-admin-grant-${g.id}`}>
        Decline
      </RowMutationButton>
      <HistoryLink entity="admin_grant" entityId={g.id} compact />
    </>
  ));

  return (
    <Card withBorder data-testid="admin-grants">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Admin rights
        </Title>
        <Text size="sm" c="dimmed">
          Making someone an admin needs a second admin: another admin approves here with their authenticator code. A new admin may approve
          refunds and admin rights after {data.recent_days} days.
        </Text>
        {data.pending.length > 0 ? (
          <DataTable columns={[...columns, actions]} rows={data.pending} rowKey={(g) => g.id} loading={grants.isFetching} data-testid="admin-grants-pending" />
        ) : (
          <Text size="sm">No admin rights wait for approval.</Text>
        )}
        {data.recent.length > 0 && (
          <Stack gap={4} data-testid="admin-grants-recent">
            <Text size="sm" fw={600}>
              Decided in the last {data.recent_days} days
            </Text>
            {data.recent.map((g) => (
              <Text size="sm" key={g.id}>
                {g.user_name}: {g.status === 'approved' ? 'made an admin' : g.status} on {formatDateTime(g.decided_at)}
                {g.decided_by ? ` by ${g.decided_by}` : ''}, asked by {g.requested_by ?? 'an admin'}.
              </Text>
            ))}
          </Stack>
        )}
      </Stack>
      <ApproveAdminGrantModal grant={approving} onClose={() => setApproving(null)} />
    </Card>
  );
}
