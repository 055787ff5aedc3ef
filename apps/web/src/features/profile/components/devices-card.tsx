import { Badge, Card, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { RowMutationButton } from '@/components/row-mutation-button.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useDevices, useEndDevice } from '../api/devices.ts';

/** Signed-in devices on My Profile: where this account is signed in, each one can be signed out. */
export function DevicesCard() {
  const devices = useDevices();
  const end = useEndDevice();
  const items = devices.data?.items ?? [];

  return (
    <Card withBorder padding="lg" data-testid="devices-card">
      <Stack gap="sm">
        <Title order={2} size="h4">Signed-in devices</Title>
        <Text size="sm" c="dimmed">
          Where your account is signed in now. End a session you do not recognise, then change your password.
        </Text>
        <Table verticalSpacing="xs" data-testid="devices-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Device</Table.Th>
              <Table.Th>Last seen</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((d) => (
              <Table.Tr key={d.id} data-testid="device-row">
                <Table.Td>
                  <Group gap={6}>
                    <Text size="sm">{d.device}</Text>
                    {d.current && (
                      <Badge variant="light" size="sm">
                        This device
                      </Badge>
                    )}
                  </Group>
                  <Text size="xs" c="dimmed">
                    IP {d.ip ?? 'unknown'} · signed in {formatDateTime(d.signed_in_at)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatDateTime(d.last_seen)}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  {!d.current && (
                    <RowMutationButton mutation={end} of={d.id} size="xs" variant="light" color="red">
                      End session
                    </RowMutationButton>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
