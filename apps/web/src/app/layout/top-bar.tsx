import { Box, Burger, Button, Group, Text } from '@mantine/core';
import { IconHome, IconLogout, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useLogout } from '@/features/auth/api/logout.ts';
import { SearchButton } from '@/features/search/components/search-button.tsx';
import { APP_NAME } from '@/config/app.ts';
import { paths } from '@/config/paths.ts';
import { useUser } from '@/lib/auth.ts';
import { liveConnectedStore } from '@/lib/live-events.ts';
import { useStore } from '@/lib/store.ts';

interface TopBarProps {
  navbarOpened: boolean;
  onToggleNavbar: () => void;
}

/** A dot that is green while payments and bets arrive live, grey while reconnecting. */
function LiveDot() {
  const connected = useStore(liveConnectedStore, (v) => v);
  return (
    // A native title, not Mantine's Tooltip: the frame stays free of the positioning library (first load).
    <Box
      title={connected ? 'Live updates on' : 'Live updates reconnecting'}
      visibleFrom="xs"
      data-testid="live-status"
      data-connected={connected}
      // A status the screen reader can name (a bare div may not carry aria-label).
      role="img"
      aria-label={connected ? 'Live updates on' : 'Live updates reconnecting'}
      style={{
        width: 10,
        height: 10,
        borderRadius: '50%',
        background: connected ? 'var(--mantine-color-green-6)' : 'var(--mantine-color-gray-5)',
      }}
    />
  );
}

/** Search (decision 067), Home, My Profile and logout (spec 2), plus the burger that opens the sidebar on small screens. */
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
        <SearchButton />
        <LiveDot />
        {/* On a phone Home and My Profile are icons, so Logout keeps its place on screen. */}
        <Button component={Link} to={paths.dashboard} variant="subtle" leftSection={<IconHome size={16} />} aria-label="Home" px={{ base: 'xs', xs: 'md' }}>
          <Box component="span" visibleFrom="xs">
            Home
          </Box>
        </Button>
        <Button component={Link} to={paths.me} variant="subtle" leftSection={<IconUser size={16} />} aria-label="My Profile" px={{ base: 'xs', xs: 'md' }}>
          <Box component="span" visibleFrom="xs">
            My Profile
          </Box>
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
