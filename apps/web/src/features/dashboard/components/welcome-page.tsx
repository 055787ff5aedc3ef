import { Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useUser } from '@/lib/auth.ts';
import { formatDateTime } from '@/lib/format.ts';

/** The home screen: greets the signed-in user and says what they may do. */
export function WelcomePage() {
  const user = useUser();
  if (!user) {
    return (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading" />
      </Group>
    );
  }
  return (
    <Stack maw={720}>
      <Title order={2} data-testid="welcome">
        Welcome, {user.name}
      </Title>
      <Card withBorder padding="lg">
        <Stack gap={4}>
          <Text>
            You are signed in as <b>{user.is_admin ? 'Administrator' : 'Staff'}</b> ({user.category_name}).
          </Text>
          <Text size="sm" c="dimmed">
            {user.is_admin
              ? 'You see every section of the back office, including money totals, users and M-Pesa transactions.'
              : 'You see the tips section and the clients assigned to you.'}
          </Text>
          {user.last_login && (
            <Text size="sm" c="dimmed">
              Last login: {formatDateTime(user.last_login)}
            </Text>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
