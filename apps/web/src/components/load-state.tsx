import { Group, Loader, Text } from '@mantine/core';

/**
 * What a screen shows before its record is there: a spinner while loading, and once the request
 * has failed (a bad id, a 404, no network) a line saying so, never an endless spinner.
 */
export function LoadState({ failed, what }: { failed: boolean; what: string }) {
  return (
    <Group justify="center" py="xl">
      {failed ? (
        <Text c="dimmed" data-testid="load-failed">
          {`This ${what} could not be loaded.`}
        </Text>
      ) : (
        <Loader role="status" aria-label="Loading" />
      )}
    </Group>
  );
}
