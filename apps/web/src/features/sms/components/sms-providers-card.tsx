import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { SmsProviderState } from '@betdesk/contract';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { providerLabel } from '@/components/sms-provider-label.ts';
import { useSmsProviders } from '../api/get-sms-providers.ts';

const STATE_LABELS: Record<SmsProviderState['state'], { label: string; color: string }> = {
  closed: { label: 'Up', color: 'teal' },
  open: { label: 'Down', color: 'red' },
  'half-open': { label: 'Probing', color: 'orange' },
};


/**
 * The SMS providers on the SMS log (decision 062): each one's circuit (up, down, probing) and why,
 * its balance and price per part. Shown only when a second provider is configured.
 */
export function SmsProvidersCard() {
  const providers = useSmsProviders();
  const list = providers.data?.providers ?? [];
  if (list.length < 2) return null;
  return (
    <Card withBorder data-testid="sms-providers">
      <Text fw={600} mb="xs">
        SMS providers
      </Text>
      <Stack gap="xs">
        {list.map((p) => {
          const state = STATE_LABELS[p.state];
          return (
            <Group key={p.provider} gap="sm" wrap="wrap" data-testid={`sms-provider-${p.provider}`}>
              <Text size="sm" fw={500} w={160}>
                {providerLabel(p.provider)} ({p.role === 'primary' ? 'primary' : 'second'})
              </Text>
              <Badge color={state.color} variant="light" data-testid={`sms-provider-state-${p.provider}`}>
                {state.label}
              </Badge>
              {p.reason && (
                <Text size="sm" c="red.8">
                  {p.reason}
                  {p.since ? ` (since ${formatDateTime(p.since)}` : ''}
                  {p.since && p.probe_on ? `, next try ${formatDateTime(p.probe_on)})` : p.since ? ')' : ''}
                </Text>
              )}
              <Text size="sm" c="dimmed">
                {p.balance !== null ? `Balance ${formatMoney(p.balance)} · ` : ''}
                {formatMoney(p.price_per_part)} a part · {p.sends.toLocaleString('en-KE')} sent · {p.failures.toLocaleString('en-KE')} not accepted
              </Text>
            </Group>
          );
        })}
      </Stack>
    </Card>
  );
}
