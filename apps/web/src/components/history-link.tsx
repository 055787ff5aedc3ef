import { Button } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { Link } from 'react-router';
import { auditPathFor } from '@/config/paths.ts';
import { useSession } from '@/lib/auth.ts';

/** "History": the audit screen filtered to this record (admins only, as the audit screen is). */
export function HistoryLink({ entity, entityId, compact = false }: { entity: string; entityId: string | number; compact?: boolean }) {
  const { isAdmin } = useSession();
  if (!isAdmin) return null;
  return (
    <Button
      component={Link}
      to={auditPathFor(entity, entityId)}
      variant="subtle"
      size={compact ? 'compact-xs' : 'sm'}
      leftSection={compact ? undefined : <IconHistory size={16} />}
      data-testid={`history-${entity}-${entityId}`}
    >
      History
    </Button>
  );
}
