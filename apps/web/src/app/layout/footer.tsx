import { Group, Text } from '@mantine/core';
import { APP_NAME, SUPPORT_PHONE } from '@/config/app.ts';

export function Footer() {
  return (
    <Group h="100%" px="md" justify="space-between" data-testid="footer">
      <Text size="sm" c="dimmed">
        Support: {SUPPORT_PHONE}
      </Text>
      <Text size="sm" c="dimmed">
        © {new Date().getFullYear()} {APP_NAME}
      </Text>
    </Group>
  );
}
