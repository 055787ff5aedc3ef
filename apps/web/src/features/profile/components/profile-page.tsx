import { useState } from 'react';
import { Avatar, Button, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { localPhone } from '@betdesk/contract';
import { useUser } from '@/lib/auth.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useMe } from '../api/get-me.ts';
import { ChangePasswordModal } from './change-password-modal.tsx';
import { DevicesCard } from './devices-card.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';

function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

/**
 * My Profile (/me): photo, name, phone, email, last login, and the Change password modal; then
 * two-factor sign-in and the signed-in devices.
 */
export function ProfilePage() {
  const sessionUser = useUser();
  const fresh = useMe();
  const user = fresh.data?.user ?? sessionUser;
  const [changingPassword, setChangingPassword] = useState(false);

  if (!user) {
    return (
      <Group justify="center" py="xl">
        <Loader role="status" aria-label="Loading profile" />
      </Group>
    );
  }

  const details: [string, string][] = [
    ['Name', user.name],
    ['Phone', localPhone(user.phone_number)],
    ['Email', user.email],
    ['Category', user.category_name],
    ['Last login', user.last_login ? formatDateTime(user.last_login) : 'Never'],
  ];

  return (
    <Stack maw={720}>
      <Title order={1} size="h2">My Profile</Title>
      <Card withBorder padding="lg" data-testid="profile-card">
        <Group align="flex-start" gap="xl" wrap="wrap">
          <Avatar src={user.photo} alt={user.name} size={96} radius={96} color="blue">
            {initialsOf(user.name)}
          </Avatar>
          <Stack gap="xs" style={{ flex: 1, minWidth: 240 }}>
            <Table variant="vertical" withTableBorder={false}>
              <Table.Tbody>
                {details.map(([label, value]) => (
                  <Table.Tr key={label}>
                    <Table.Th w={120}>{label}</Table.Th>
                    <Table.Td>
                      <Text size="sm">{value}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group>
              <Button
                leftSection={<IconLock size={16} />}
                onClick={() => setChangingPassword(true)}
                data-testid="change-password"
              >
                Change password
              </Button>
            </Group>
          </Stack>
        </Group>
      </Card>
      <TwoFactorCard />
      <DevicesCard />
      <ChangePasswordModal opened={changingPassword} onClose={() => setChangingPassword(false)} />
    </Stack>
  );
}
