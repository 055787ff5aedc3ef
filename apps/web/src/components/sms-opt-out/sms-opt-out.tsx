import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { can, clearOptOut, clientOptOut, OPT_OUT_SOURCE_LABELS, optOutPerson, subscriberOptOut, type OptOutState } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';
import { useRole } from '@/lib/auth.ts';
import { formatDateTime } from '@/lib/format.ts';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

type Person = { clientId: number } | { subscriberId: number };

const ids = (person: Person) => ('clientId' in person ? { client_id: person.clientId } : { subscriber_id: person.subscriberId });

const ReasonForm = z.object({ reason: z.string().trim().min(3, 'Say why the opt-out is cleared').max(300) });
const OptionalReason = z.object({ reason: z.string().trim().max(300) });

function StateBadge({ state }: { state: OptOutState }) {
  if (state.opted_out) return <Badge color="red">Opted out of tips and offers</Badge>;
  if (state.categories.length > 0) return <Badge color="orange">Stopped {state.categories.join(', ')} tips</Badge>;
  if (state.offers_stopped) return <Badge color="orange">No offers (Do Not Disturb)</Badge>;
  return <Badge color="green">Receives SMS</Badge>;
}

/**
 * A person's SMS opt-out state (STOP, Africa's Talking, a 406 blacklist answer or an admin) and its
 * history; transactional messages still reach them. Admins opt them out or clear it with a reason.
 */
export function SmsOptOut({ person }: { person: Person }) {
  const role = useRole();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'out' | 'clear' | null>(null);
  const state = useQuery({
    queryKey: queryKeys.sms.optOut(ids(person)),
    queryFn: () =>
      'clientId' in person
        ? callEndpoint(clientOptOut, { query: { client_id: person.clientId } })
        : callEndpoint(subscriberOptOut, { query: { subscriber_id: person.subscriberId } }),
  });
  const saved = () => queryClient.invalidateQueries({ queryKey: queryKeys.sms.all });
  const optOut = useMutation({ mutationFn: (reason: string) => callEndpoint(optOutPerson, { body: { ...ids(person), reason } }) });
  const clear = useMutation({ mutationFn: (reason: string) => callEndpoint(clearOptOut, { body: { ...ids(person), reason } }) });
  const opt = state.data?.opt_out;
  const mayManage = can(role, 'manage:opt-outs');
  const stopped = opt ? opt.opted_out || opt.offers_stopped || opt.categories.length > 0 : false;

  return (
    <Card withBorder data-testid="sms-opt-out">
      <Group justify="space-between" mb="sm">
        <Group gap="sm">
          <Title order={2} size="h4">SMS opt-out</Title>
          {opt && <StateBadge state={opt} />}
        </Group>
        {mayManage && opt && (
          <Group gap="xs">
            {!opt.opted_out && (
              <Button size="xs" variant="light" color="red" onClick={() => setDialog('out')}>
                Opt out
              </Button>
            )}
            {stopped && (
              <Button size="xs" variant="light" onClick={() => setDialog('clear')}>
                Clear opt-out
              </Button>
            )}
          </Group>
        )}
      </Group>
      {opt && opt.history.length === 0 && (
        <Text size="sm" c="dimmed">
          Never opted out. Receipts and replies always reach this phone.
        </Text>
      )}
      {opt && opt.history.length > 0 && (
        <Table.ScrollContainer minWidth={520}>
          <Table data-testid="sms-opt-out-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>How</Table.Th>
                <Table.Th>Reason</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {opt.history.map((h) => (
                <Table.Tr key={`${h.at}-${h.action}-${h.scope}`}>
                  <Table.Td>{formatDateTime(h.at)}</Table.Td>
                  <Table.Td>
                    {h.action === 'opt-out' ? 'Opted out' : 'Opted in'}
                    {h.scope === 'all' ? '' : h.scope === 'promotional' ? ' (offers only)' : ` (${h.scope} tips)`}
                  </Table.Td>
                  <Table.Td>{h.source === 'admin' && h.by ? `${h.by} (admin)` : OPT_OUT_SOURCE_LABELS[h.source]}</Table.Td>
                  <Table.Td>{h.reason ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <FormModal
        opened={dialog === 'out'}
        onClose={() => setDialog(null)}
        title="Opt out of tips and offers"
        schema={OptionalReason}
        defaultValues={{ reason: '' }}
        submit={(v) => optOut.mutateAsync(v.reason)}
        onSaved={saved}
        submitLabel="Opt out"
      >
        {({ form, errorOf }) => (
          <Stack>
            <Text size="sm">No paid tips, reminders or broadcasts will reach this phone; receipts and replies still do.</Text>
            <Textarea label="Reason (optional)" {...form.register('reason')} error={errorOf('reason')} />
          </Stack>
        )}
      </FormModal>
      <FormModal
        opened={dialog === 'clear'}
        onClose={() => setDialog(null)}
        title="Clear the opt-out"
        schema={ReasonForm}
        defaultValues={{ reason: '' }}
        submit={(v) => clear.mutateAsync(v.reason)}
        onSaved={saved}
        submitLabel="Clear opt-out"
      >
        {({ form, errorOf }) => (
          <Textarea label="Reason" withAsterisk {...form.register('reason')} error={errorOf('reason')} />
        )}
      </FormModal>
    </Card>
  );
}
