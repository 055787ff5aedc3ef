import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { formatDateTime } from '@/lib/format.ts';
import type { AdminAlerts } from '@betdesk/contract';

/**
 * The admin dashboard's alert on admin rights (decision 056): every grant waiting for a second
 * admin, and every admin made within the cooling-off days, so that a grant nobody meant is seen
 * before the new admin may approve money out.
 */
export function AdminGrantAlerts({ grants }: { grants: AdminAlerts['admin_grants'] }) {
  if (!grants) return null;
  const { pending, given } = grants;
  if (pending.length === 0 && given.length === 0) return null;
  return (
    <Alert color="orange" title="Admin rights" data-testid="admin-grant-alerts">
      {pending.map((g) => (
        <Text size="sm" key={g.id}>
          {g.requested_by ?? 'An admin'} asks to make {g.user_name} an admin ({formatDateTime(g.requested_at)}): another admin must approve or decline it.
        </Text>
      ))}
      {given.map((g) => (
        <Text size="sm" key={g.id}>
          {g.user_name} was made an admin on {formatDateTime(g.decided_at)}, asked by {g.requested_by ?? 'an admin'} and approved by {g.decided_by ?? 'an admin'}.
        </Text>
      ))}
      <Anchor component={Link} to={paths.users.all} size="sm">
        Open Users
      </Anchor>
    </Alert>
  );
}
