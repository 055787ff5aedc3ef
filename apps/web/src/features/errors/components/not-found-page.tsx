import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { screenTexts } from '@betdesk/contract';
import { paths } from '@/config/paths.ts';

/** Any path the app does not know (spec 2). */
export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <Stack align="center" py={64} gap="md" data-testid="not-found">
      <Title order={1} c="orange.7">
        404
      </Title>
      <Title order={2}>{screenTexts.notFoundTitle}</Title>
      <Text c="dimmed">{screenTexts.notFoundBody}</Text>
      <Group>
        <Button component={Link} to={paths.dashboard}>
          Go to the dashboard
        </Button>
        <Button variant="default" onClick={() => void navigate(-1)}>
          Go back
        </Button>
      </Group>
    </Stack>
  );
}
