import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { formatDateTime } from '@/lib/format.ts';
import { providerLabel } from '@/components/sms-provider-label.ts';
import type { AdminAlerts } from '@betdesk/contract';

/**
 * The admin dashboard's alert on SMS providers (decision 062): a provider whose circuit is open, why,
 * since when, and whether the other one carries the SMS meanwhile.
 */
export function SmsProviderAlerts({ states }: { states: AdminAlerts['sms_providers'] }) {
  const providers = states ?? [];
  const down = providers.filter((p) => p.state !== 'closed');
  if (providers.length < 2 || down.length === 0) return null;
  const anyUp = down.length < providers.length;
  return (
    <Alert color={anyUp ? 'orange' : 'red'} title="SMS providers" data-testid="sms-provider-alerts">
      {down.map((p) => (
        <Text size="sm" key={p.provider}>
          {providerLabel(p.provider)} is {p.state === 'open' ? 'down' : 'being probed'}
          {p.since ? ` since ${formatDateTime(p.since)}` : ''}: {p.reason ?? 'no reason given'}.
        </Text>
      ))}
      <Text size="sm">{anyUp ? 'SMS go through the other provider meanwhile.' : 'No SMS can leave: sign-in codes and receipts wait.'}</Text>
      <Anchor component={Link} to={paths.sms.log} size="sm">
        Open the SMS log
      </Anchor>
    </Alert>
  );
}
