import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { Link, Outlet, useMatches } from 'react-router';
import { can, statusTexts, type Permission } from '@betdesk/contract';
import { paths } from '@/config/paths.ts';
import { useRole } from '@/lib/auth.ts';

/** A route's handle may name the permission its screen needs (an admin-only screen). */
interface AccessHandle {
  access?: Permission;
}

/** The permission the deepest route that names one needs, or null when every signed-in user may open it. */
export function accessOf(matches: readonly { handle?: unknown }[]): Permission | null {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const access = (matches[i]?.handle as AccessHandle | undefined)?.access;
    if (access) return access;
  }
  return null;
}

/**
 * The screen, or, for a user whose role may not open it (a staff member who typed an admin page's
 * address), the refusal alone: no filters, exports or empty tables drawn around it. The server
 * refuses the screen's calls anyway; this only spares the user a screen of nothing.
 */
export function ScreenForRole() {
  const role = useRole();
  const access = accessOf(useMatches());
  if (access === null || can(role, access)) return <Outlet />;
  return (
    <Card withBorder maw={560} data-testid="screen-refused">
      <Stack gap="sm">
        <Title order={1} size="h3">
          This screen is for admins
        </Title>
        <Text fw={600}>{statusTexts[403]}</Text>
        <Text>
          Your account is a staff account, and this screen shows what only admins may see or change. Ask an admin if you need
          something from it.
        </Text>
        <Button component={Link} to={paths.dashboard} variant="light" w="fit-content">
          Back to the dashboard
        </Button>
      </Stack>
    </Card>
  );
}
