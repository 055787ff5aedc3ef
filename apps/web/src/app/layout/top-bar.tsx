import { Burger, Button, Group, Text } from '@mantine/core';
import { IconHome, IconLogout, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useLogout } from '@/features/auth/api/logout.ts';
import { APP_NAME } from '@/config/app.ts';
import { paths } from '@/config/paths.ts';
import { useUser } from '@/lib/auth.ts';

interface TopBarProps {
  navbarOpened: boolean;
  onToggleNavbar: () => void;
}

/** Home, My Profile and logout (spec 2), plus the burger that opens the sidebar on small screens. */
export function TopBar({ navbarOpened, onToggleNavbar }: TopBarProps) {
  const user = useUser();
  const signOut = useLogout();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={navbarOpened}
          onClick={onToggleNavbar}
          hiddenFrom="sm"
          size="sm"
          aria-label="Toggle menu"
          data-testid="nav-burger"
        />
        <Text fw={700} size="lg" visibleFrom="xs">
          {APP_NAME}
        </Text>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <Button component={Link} to={paths.dashboard} variant="subtle" leftSection={<IconHome size={16} />}>
          Home
        </Button>
        <Button component={Link} to={paths.me} variant="subtle" leftSection={<IconUser size={16} />}>
          My Profile
        </Button>
        {user && (
          <Text size="sm" c="dimmed" visibleFrom="sm" data-testid="current-user">
            {user.name}
          </Text>
        )}
        <Button
          variant="light"
          color="red"
          leftSection={<IconLogout size={16} />}
          loading={signOut.isPending}
          onClick={() => signOut.mutate()}
          data-testid="logout"
        >
          Logout
        </Button>
      </Group>
    </Group>
  );
}
