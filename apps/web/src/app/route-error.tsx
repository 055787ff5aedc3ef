import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';

/** A screen that threw while rendering: say so and offer a reload rather than a blank page. */
export function RouteError() {
  const error = useRouteError();
  console.error('[router] a screen failed to render', error);
  return (
    <Center mih="60vh">
      <Stack align="center">
        <Title order={1} size="h2">Something went wrong on this screen.</Title>
        <Text c="dimmed">Reload the page to try again.</Text>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </Center>
  );
}
